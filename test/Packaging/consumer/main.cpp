// Consumer of the installed C++ API: JIT-compiles a 2-D filter gradient
// (stride, dilation, VALID, 2 OpenMP threads) and checks every value against
// a naive loop over the definition
//   dW[kh, kw, ci, co] = sum_{b, oh, ow} X[b, oh*sh + kh*dh, ow*sw + kw*dw, ci]
//                                        * dY[b, oh, ow, co].
#include "conv/Runtime/Jit.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <vector>

using namespace convgen;

int main() {
  const int64_t B = 2, H = 7, W = 6, C = 3, KH = 3, KW = 2, CO = 4;
  const int64_t SH = 2, SW = 1, DH = 1, DW = 2;
  const int64_t OH = (H - (KH - 1) * DH - 1) / SH + 1; // 3
  const int64_t OW = (W - (KW - 1) * DW - 1) / SW + 1; // 4

  BackpropFilterSpec spec;
  spec.elementType = ElementType::F32;
  spec.attrs.layout = DataLayout::ChannelsLast; // NHWC
  spec.attrs.padding = FilterPadding::Valid;
  spec.attrs.strides = {SH, SW};
  spec.attrs.dilations = {DH, DW};
  spec.inputShape = {B, H, W, C};
  spec.filterShape = {KH, KW, C, CO};
  spec.outBackpropShape = {B, OH, OW, CO};
  CompileOptions options;
  options.numThreads = 2;

  auto kernel = Jit::global().compile(spec, options);
  if (!kernel) {
    llvm::errs() << "compile failed: " << llvm::toString(kernel.takeError())
                 << "\n";
    return 1;
  }

  // Small integers: every sum is exact in f32.
  std::vector<float> x(B * H * W * C), dy(B * OH * OW * CO),
      dw(KH * KW * C * CO, -1.0f);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int64_t(i * 7 % 11) - 5);
  for (size_t i = 0; i < dy.size(); ++i)
    dy[i] = float(int64_t(i * 5 % 7) - 3);
  if (llvm::Error err = (*kernel)->run({x.data(), dy.data(), dw.data()})) {
    llvm::errs() << "run failed: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }

  int bad = 0;
  double checksum = 0;
  for (int64_t kh = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw)
      for (int64_t ci = 0; ci < C; ++ci)
        for (int64_t co = 0; co < CO; ++co) {
          double want = 0;
          for (int64_t b = 0; b < B; ++b)
            for (int64_t oh = 0; oh < OH; ++oh)
              for (int64_t ow = 0; ow < OW; ++ow)
                want += double(x[((b * H + oh * SH + kh * DH) * W + ow * SW +
                                  kw * DW) * C + ci]) *
                        double(dy[((b * OH + oh) * OW + ow) * CO + co]);
          float got = dw[((kh * KW + kw) * C + ci) * CO + co];
          checksum += std::fabs(want);
          if (double(got) != want && bad++ < 5)
            llvm::errs() << "dw[" << kh << "," << kw << "," << ci << "," << co
                         << "] = " << got << ", expected " << want << "\n";
        }
  if (bad || checksum == 0) {
    llvm::errs() << bad << " wrong values\n";
    return 1;
  }
  llvm::outs() << "consumer-cpp: " << dw.size()
               << " filter-gradient values match the naive loop\n";
  return 0;
}
