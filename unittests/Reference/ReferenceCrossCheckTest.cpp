//===- ReferenceCrossCheckTest.cpp - Brute-force reference cross-checks ---===//
//
// Seeded random small configurations (N = 1..3, both layouts, groups, every
// padding, strides x dilations) compare the reference against independent
// naive formulations written here straight from the spec:
//
//  * backprop_filter: the input is materialized with the spec's pads
//    (§1.3, recomputed here), then dW = sum_{b,o} Xp[b, o*s + k*d, c] *
//    dY[b, o, co]; and the adjoint identity <conv(x, w), dy> = <w, dW> with
//    a naive forward conv over the padded input.
//  * transpose: the JAX lhs-dilated formulation of spec §2.4 (zero
//    insertion, explicit (left, right) pads where negative means crop,
//    correlation with the spatially flipped, dilated kernel); and, where
//    the TF backend accepts the shape, the adjoint identity
//    <transpose(x, K), X> = <K, backprop_filter(X, x)>.
//
// All data are small integers, so every sum is exact and results are
// compared for equality.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "conv/Reference/Reference.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace convgen;
using namespace convgen::testutil;

namespace {

/// Calls f(idx) for every multi-index of `sizes` (row-major order).
void forEachIndex(const Shape &sizes, const std::function<void(const Shape &)> &f) {
  for (int64_t s : sizes)
    if (s <= 0)
      return;
  Shape idx(sizes.size(), 0);
  while (true) {
    f(idx);
    int64_t d = static_cast<int64_t>(sizes.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < sizes[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// Row-major offset of `idx` in `sizes`.
int64_t offset(const Shape &sizes, const Shape &idx) {
  int64_t o = 0;
  for (size_t i = 0; i < sizes.size(); ++i)
    o = o * sizes[i] + idx[i];
  return o;
}

/// Channels-last activation offset of (b, spatial..., c).
int64_t act(const Shape &spatial, int64_t channels, int64_t b,
            const Shape &pos, int64_t c) {
  Shape full{b};
  full.insert(full.end(), pos.begin(), pos.end());
  full.push_back(c);
  Shape sizes{0};
  sizes.insert(sizes.end(), spatial.begin(), spatial.end());
  sizes.push_back(channels);
  return offset(sizes, full);
}

std::vector<double> randomInts(std::mt19937 &rng, size_t n, int lo = -3,
                               int hi = 3) {
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> v(n);
  for (auto &x : v)
    x = dist(rng);
  return v;
}

double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

int64_t truncDiv(int64_t a, int64_t b) {
  // Spelled out so that it does not depend on the library's arithmetic.
  return a >= 0 ? a / b : -((-a) / b);
}

//===----------------------------------------------------------------------===//
// backprop_filter
//===----------------------------------------------------------------------===//

struct BFConfig {
  DataLayout layout;
  int64_t batch, cf, groups, coutPerGroup;
  Shape in, k, s, d;
  FilterPadding padding;
  Shape explicitPaddings;

  int64_t n() const { return static_cast<int64_t>(in.size()); }
  int64_t cin() const { return cf * groups; }
  int64_t cout() const { return coutPerGroup * groups; }
};

std::string describe(const BFConfig &c) {
  std::ostringstream os;
  os << "backprop_filter layout=" << layoutName(c.layout)
     << " batch=" << c.batch << " Cin=" << c.cin() << " Cf=" << c.cf
     << " groups=" << c.groups << " Cout=" << c.cout() << " in=" << str(c.in)
     << " k=" << str(c.k) << " strides=" << str(c.s)
     << " dilations=" << str(c.d) << " padding=" << stringify(c.padding)
     << " explicit=" << str(c.explicitPaddings);
  return os.str();
}

/// Spec §1.3 per dimension: out, pad before, pad after (out < 0: invalid).
struct SpecWindow {
  Shape out, pb, pa;
  bool valid = true;
};

SpecWindow specWindow(const BFConfig &c) {
  SpecWindow w;
  for (int64_t i = 0; i < c.n(); ++i) {
    int64_t ke = (c.k[i] - 1) * c.d[i] + 1, in = c.in[i], s = c.s[i];
    int64_t out = 0, pb = 0, pa = 0;
    switch (c.padding) {
    case FilterPadding::Valid:
      out = truncDiv(in - ke + s, s);
      break;
    case FilterPadding::Explicit:
      pb = c.explicitPaddings[2 * i];
      pa = c.explicitPaddings[2 * i + 1];
      out = truncDiv(in + pb + pa - ke + s, s);
      break;
    case FilterPadding::Same: {
      out = (in + s - 1) / s;
      int64_t p = std::max<int64_t>(0, (out - 1) * s + ke - in);
      pb = p / 2;
      pa = p - pb;
      break;
    }
    }
    if (out < 0)
      w.valid = false;
    w.out.push_back(out);
    w.pb.push_back(pb);
    w.pa.push_back(pa);
  }
  return w;
}

/// Zero-padded channels-last input with sizes in + pb + pa.
std::vector<double> padInput(const BFConfig &c, const SpecWindow &w,
                             const std::vector<double> &x, Shape &padded) {
  padded.clear();
  for (int64_t i = 0; i < c.n(); ++i)
    padded.push_back(c.in[i] + w.pb[i] + w.pa[i]);
  std::vector<double> xp(c.batch * numel(padded) * c.cin(), 0.0);
  for (int64_t b = 0; b < c.batch; ++b)
    forEachIndex(c.in, [&](const Shape &pos) {
      Shape q = pos;
      for (int64_t i = 0; i < c.n(); ++i)
        q[i] += w.pb[i];
      for (int64_t ch = 0; ch < c.cin(); ++ch)
        xp[act(padded, c.cin(), b, q, ch)] = x[act(c.in, c.cin(), b, pos, ch)];
    });
  return xp;
}

/// Position in the padded input read by output `o` and tap `k`.
Shape window(const BFConfig &c, const Shape &o, const Shape &k) {
  Shape p(c.n());
  for (int64_t i = 0; i < c.n(); ++i)
    p[i] = o[i] * c.s[i] + k[i] * c.d[i];
  return p;
}

std::vector<double> naiveBackpropFilter(const BFConfig &c, const SpecWindow &w,
                                        const std::vector<double> &x,
                                        const std::vector<double> &dy) {
  Shape padded;
  auto xp = padInput(c, w, x, padded);
  Shape fshape = c.k;
  fshape.push_back(c.cf);
  fshape.push_back(c.cout());
  std::vector<double> dw(numel(fshape), 0.0);
  forEachIndex(c.k, [&](const Shape &k) {
    for (int64_t ci = 0; ci < c.cf; ++ci)
      for (int64_t co = 0; co < c.cout(); ++co) {
        int64_t ch = (co / c.coutPerGroup) * c.cf + ci;
        double acc = 0;
        for (int64_t b = 0; b < c.batch; ++b)
          forEachIndex(w.out, [&](const Shape &o) {
            Shape p = window(c, o, k);
            for (int64_t i = 0; i < c.n(); ++i)
              if (p[i] >= padded[i])
                ADD_FAILURE() << "window out of the padded input";
            acc += xp[act(padded, c.cin(), b, p, ch)] *
                   dy[act(w.out, c.cout(), b, o, co)];
          });
        Shape fi = k;
        fi.push_back(ci);
        fi.push_back(co);
        dw[offset(fshape, fi)] = acc;
      }
  });
  return dw;
}

/// Naive forward conv over the padded input: y[b, o, co].
std::vector<double> naiveForward(const BFConfig &c, const SpecWindow &w,
                                 const std::vector<double> &x,
                                 const std::vector<double> &filter) {
  Shape padded;
  auto xp = padInput(c, w, x, padded);
  Shape fshape = c.k;
  fshape.push_back(c.cf);
  fshape.push_back(c.cout());
  std::vector<double> y(c.batch * numel(w.out) * c.cout(), 0.0);
  for (int64_t b = 0; b < c.batch; ++b)
    forEachIndex(w.out, [&](const Shape &o) {
      for (int64_t co = 0; co < c.cout(); ++co) {
        double acc = 0;
        forEachIndex(c.k, [&](const Shape &k) {
          Shape p = window(c, o, k);
          for (int64_t ci = 0; ci < c.cf; ++ci) {
            Shape fi = k;
            fi.push_back(ci);
            fi.push_back(co);
            acc += xp[act(padded, c.cin(), b, p,
                          (co / c.coutPerGroup) * c.cf + ci)] *
                   filter[offset(fshape, fi)];
          }
        });
        y[act(w.out, c.cout(), b, o, co)] = acc;
      }
    });
  return y;
}

BFConfig randomBFConfig(std::mt19937 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  BFConfig c;
  int64_t n = pick(1, 3);
  c.layout = pick(0, 1) ? DataLayout::ChannelsLast : DataLayout::ChannelsFirst;
  c.batch = pick(0, 9) == 0 ? 0 : pick(1, 2);
  c.groups = pick(1, 3);
  c.cf = pick(1, 2);
  c.coutPerGroup = pick(0, 12) == 0 ? 0 : pick(1, 2);
  int64_t maxIn = n == 3 ? 4 : 7;
  for (int64_t i = 0; i < n; ++i) {
    c.in.push_back(pick(0, 15) == 0 ? 0 : pick(1, maxIn));
    c.k.push_back(pick(1, 3));
    c.s.push_back(pick(1, 3));
    c.d.push_back(pick(1, 3));
  }
  int64_t p = pick(0, 2);
  c.padding = p == 0   ? FilterPadding::Valid
              : p == 1 ? FilterPadding::Same
                       : FilterPadding::Explicit;
  if (c.padding == FilterPadding::Explicit)
    for (int64_t i = 0; i < 2 * n; ++i)
      c.explicitPaddings.push_back(pick(0, 3));
  return c;
}

TEST(ReferenceCrossCheck, BackpropFilterRandomConfigs) {
  std::mt19937 rng(12345);
  int checked = 0, rejected = 0, attempts = 0;
  int perN[4] = {0, 0, 0, 0}, perPadding[3] = {0, 0, 0}, grouped = 0,
      channelsFirst = 0;
  while (checked < 400 && ++attempts < 5000) {
    BFConfig c = randomBFConfig(rng);
    SCOPED_TRACE(describe(c));
    SpecWindow w = specWindow(c);
    Shape inCL{c.batch}, obCL{c.batch};
    inCL.insert(inCL.end(), c.in.begin(), c.in.end());
    inCL.push_back(c.cin());
    obCL.insert(obCL.end(), w.out.begin(), w.out.end());
    obCL.push_back(c.cout());
    Shape filter = c.k;
    filter.push_back(c.cf);
    filter.push_back(c.cout());
    BackpropFilterAttrs a;
    a.layout = c.layout;
    a.strides = c.s;
    a.dilations = c.d;
    a.padding = c.padding;
    a.explicitPaddings = c.explicitPaddings;
    if (!w.valid) {
      // The geometry must reject a negative output size.
      auto s = inferOutBackpropShape(a, inLayout(inCL, c.layout), filter);
      EXPECT_FALSE(s.ok());
      if (!s.ok()) {
        EXPECT_NE(s.error().find("would be negative"), std::string::npos)
            << s.error();
      }
      ++rejected;
      continue;
    }
    auto g = computeBackpropFilterGeometry(a, inLayout(inCL, c.layout), filter,
                                           inLayout(obCL, c.layout));
    ASSERT_TRUE(g.ok()) << g.error();
    EXPECT_EQ(g->outSpatial, w.out);
    EXPECT_EQ(g->padBefore, w.pb);
    EXPECT_EQ(g->padAfter, w.pa);
    EXPECT_EQ(g->groups, c.groups);

    auto x = randomInts(rng, numel(inCL));
    auto dy = randomInts(rng, numel(obCL));
    auto expected = naiveBackpropFilter(c, w, x, dy);
    auto xl = inLayoutData(inCL, x, c.layout);
    auto dyl = inLayoutData(obCL, dy, c.layout);
    auto dw = nanBuffer(numel(filter));
    referenceBackpropFilter(*g, xl.data(), dyl.data(), dw.data());
    ASSERT_EQ(dw, expected);

    // Adjoint identity with a random filter.
    auto wr = randomInts(rng, numel(filter));
    auto y = naiveForward(c, w, x, wr);
    EXPECT_EQ(dot(y, dy), dot(wr, dw));

    ++checked;
    ++perN[c.n()];
    ++perPadding[static_cast<int>(c.padding)];
    grouped += c.groups > 1;
    channelsFirst += c.layout == DataLayout::ChannelsFirst;
  }
  EXPECT_EQ(checked, 400);
  // The sample covers what it claims to cover.
  EXPECT_GT(rejected, 0);
  for (int n = 1; n <= 3; ++n)
    EXPECT_GT(perN[n], 50) << "N=" << n;
  for (int p = 0; p < 3; ++p)
    EXPECT_GT(perPadding[p], 50) << "padding " << p;
  EXPECT_GT(grouped, 100);
  EXPECT_GT(channelsFirst, 100);
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

struct TrConfig {
  DataLayout layout;
  int64_t batch, cin, cout;
  Shape in, k, s, d;
  TransposePadding padding;
  std::optional<Shape> op;
  int64_t n() const { return static_cast<int64_t>(in.size()); }
};

std::string describe(const TrConfig &c) {
  std::ostringstream os;
  os << "transpose layout=" << layoutName(c.layout) << " batch=" << c.batch
     << " Cin=" << c.cin << " Cout=" << c.cout << " in=" << str(c.in)
     << " k=" << str(c.k) << " strides=" << str(c.s)
     << " dilations=" << str(c.d) << " padding=" << stringify(c.padding)
     << " output_padding=" << str(c.op);
  return os.str();
}

/// Keras -> JAX pads, spec §2.4 (all operands >= 0, so / is floor).
std::pair<int64_t, int64_t> jaxPads(int64_t k, int64_t s, int64_t d,
                                    TransposePadding p,
                                    std::optional<int64_t> op) {
  int64_t ke = (k - 1) * d + 1;
  if (p == TransposePadding::Valid) {
    int64_t o = op ? *op : std::max(ke, s) - ke;
    return {ke - 1, ke - 1 + o};
  }
  int64_t padLen = op ? ke + ke % 2 - 2 + *op : s + ke - 2;
  int64_t left = std::min(padLen / 2 + padLen % 2, ke - 1);
  return {left, padLen - left};
}

/// Keras output length, spec §2.2.
int64_t kerasLength(int64_t in, int64_t k, int64_t s, int64_t d,
                    TransposePadding p, std::optional<int64_t> op) {
  int64_t ke = (k - 1) * d + 1;
  if (p == TransposePadding::Valid)
    return op ? (in - 1) * s + ke + *op : (in - 1) * s + std::max(ke, s);
  return op ? (in - 1) * s + ke % 2 + *op : in * s;
}

/// JAX formulation: lhs dilation by s, explicit pads (negative = crop),
/// correlation with the flipped kernel dilated by d, window stride 1.
std::vector<double> naiveTranspose(const TrConfig &c,
                                   const std::vector<double> &x,
                                   const std::vector<double> &kernel,
                                   Shape &outSpatial) {
  int64_t n = c.n();
  Shape left(n), padded(n);
  outSpatial.assign(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    std::optional<int64_t> op;
    if (c.op)
      op = (*c.op)[i];
    auto [l, r] = jaxPads(c.k[i], c.s[i], c.d[i], c.padding, op);
    int64_t ke = (c.k[i] - 1) * c.d[i] + 1;
    int64_t dilated = (c.in[i] - 1) * c.s[i] + 1;
    left[i] = l;
    padded[i] = dilated + l + r;
    outSpatial[i] = padded[i] - ke + 1;
  }
  // Zero-inserted, padded / cropped input.
  std::vector<double> xp(c.batch * numel(padded) * c.cin, 0.0);
  for (int64_t b = 0; b < c.batch; ++b)
    forEachIndex(c.in, [&](const Shape &pos) {
      Shape q(n);
      for (int64_t i = 0; i < n; ++i) {
        q[i] = left[i] + pos[i] * c.s[i];
        if (q[i] < 0 || q[i] >= padded[i])
          return; // cropped away
      }
      for (int64_t ch = 0; ch < c.cin; ++ch)
        xp[act(padded, c.cin, b, q, ch)] = x[act(c.in, c.cin, b, pos, ch)];
    });
  Shape kshape = c.k;
  kshape.push_back(c.cout);
  kshape.push_back(c.cin);
  std::vector<double> y(c.batch * numel(outSpatial) * c.cout, 0.0);
  for (int64_t b = 0; b < c.batch; ++b)
    forEachIndex(outSpatial, [&](const Shape &q) {
      for (int64_t o = 0; o < c.cout; ++o) {
        double acc = 0;
        forEachIndex(c.k, [&](const Shape &m) {
          Shape p(n), flipped(n);
          for (int64_t i = 0; i < n; ++i) {
            p[i] = q[i] + m[i] * c.d[i];
            flipped[i] = c.k[i] - 1 - m[i];
          }
          for (int64_t ch = 0; ch < c.cin; ++ch) {
            Shape ki = flipped;
            ki.push_back(o);
            ki.push_back(ch);
            acc += xp[act(padded, c.cin, b, p, ch)] * kernel[offset(kshape, ki)];
          }
        });
        y[act(outSpatial, c.cout, b, q, o)] = acc;
      }
    });
  return y;
}

TrConfig randomTrConfig(std::mt19937 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  TrConfig c;
  int64_t n = pick(1, 3);
  c.layout = pick(0, 1) ? DataLayout::ChannelsLast : DataLayout::ChannelsFirst;
  c.batch = pick(1, 2);
  c.cin = pick(1, 3);
  c.cout = pick(0, 12) == 0 ? 0 : pick(1, 3);
  int64_t maxIn = n == 3 ? 3 : 5;
  for (int64_t i = 0; i < n; ++i) {
    c.in.push_back(pick(1, maxIn));
    c.k.push_back(pick(1, 4));
    c.s.push_back(pick(1, 3));
    c.d.push_back(pick(1, 3));
  }
  c.padding = pick(0, 1) ? TransposePadding::Valid : TransposePadding::Same;
  if (pick(0, 1)) {
    Shape op;
    for (int64_t i = 0; i < n; ++i)
      op.push_back(pick(0, c.s[i] - 1));
    c.op = op;
  }
  return c;
}

/// Runs the reference on channels-last data and returns channels-last data.
std::vector<double> runReferenceTranspose(const TrConfig &c,
                                          const std::vector<double> &x,
                                          const std::vector<double> &kernel,
                                          Shape *outCL = nullptr) {
  Shape inCL{c.batch};
  inCL.insert(inCL.end(), c.in.begin(), c.in.end());
  inCL.push_back(c.cin);
  Shape kshape = c.k;
  kshape.push_back(c.cout);
  kshape.push_back(c.cin);
  TransposeAttrs a;
  a.layout = c.layout;
  a.strides = c.s;
  a.dilations = c.d;
  a.padding = c.padding;
  a.outputPadding = c.op;
  auto g = computeTransposeGeometry(a, inLayout(inCL, c.layout), kshape);
  EXPECT_TRUE(g.ok()) << g.error();
  if (!g.ok())
    return {};
  Shape out{c.batch};
  out.insert(out.end(), g->outSpatial.begin(), g->outSpatial.end());
  out.push_back(c.cout);
  if (outCL)
    *outCL = out;
  auto xl = inLayoutData(inCL, x, c.layout);
  auto y = nanBuffer(numel(out));
  referenceTranspose(*g, xl.data(), kernel.data(), y.data());
  return c.layout == DataLayout::ChannelsLast ? y : dataToChannelsLast(out, y);
}

TEST(ReferenceCrossCheck, TransposeRandomConfigs) {
  std::mt19937 rng(67890);
  int checked = 0, adjointChecked = 0, perN[4] = {0, 0, 0, 0}, same = 0,
      withOp = 0, channelsFirst = 0;
  for (int iter = 0; iter < 400; ++iter) {
    TrConfig c = randomTrConfig(rng);
    SCOPED_TRACE(describe(c));
    Shape inCL{c.batch};
    inCL.insert(inCL.end(), c.in.begin(), c.in.end());
    inCL.push_back(c.cin);
    Shape kshape = c.k;
    kshape.push_back(c.cout);
    kshape.push_back(c.cin);
    auto x = randomInts(rng, numel(inCL));
    auto kernel = randomInts(rng, numel(kshape));

    Shape naiveOut;
    auto expected = naiveTranspose(c, x, kernel, naiveOut);
    for (int64_t i = 0; i < c.n(); ++i) {
      std::optional<int64_t> op;
      if (c.op)
        op = (*c.op)[i];
      ASSERT_EQ(naiveOut[i],
                kerasLength(c.in[i], c.k[i], c.s[i], c.d[i], c.padding, op))
          << "dim " << i;
    }
    Shape outCL;
    auto y = runReferenceTranspose(c, x, kernel, &outCL);
    ASSERT_EQ(Shape(outCL.begin() + 1, outCL.end() - 1), naiveOut);
    ASSERT_EQ(y, expected);
    ++checked;
    ++perN[c.n()];
    same += c.padding == TransposePadding::Same;
    withOp += c.op.has_value();
    channelsFirst += c.layout == DataLayout::ChannelsFirst;

    // Where TF's Conv2DBackpropInput accepts the shape (the forward conv of
    // the output gives the input size back), the transpose is the adjoint
    // of the forward conv whose filter gradient is backprop_filter, and the
    // crop equals TF's pad_before (spec §2.3, §2.6).
    BackpropFilterAttrs a;
    a.layout = c.layout;
    a.strides = c.s;
    a.dilations = c.d;
    a.padding = c.padding == TransposePadding::Valid ? FilterPadding::Valid
                                                     : FilterPadding::Same;
    auto bg = computeBackpropFilterGeometry(a, inLayout(outCL, c.layout),
                                            kshape, inLayout(inCL, c.layout));
    if (!bg.ok())
      continue;
    for (int64_t i = 0; i < c.n(); ++i) {
      std::optional<int64_t> op;
      if (c.op)
        op = (*c.op)[i];
      EXPECT_EQ(bg->padBefore[i],
                transposeCropBefore(c.k[i], c.s[i], c.d[i], c.padding, op))
          << "dim " << i;
    }
    auto X = randomInts(rng, numel(outCL));
    auto Xl = inLayoutData(outCL, X, c.layout);
    auto xl = inLayoutData(inCL, x, c.layout);
    auto dw = nanBuffer(numel(kshape));
    referenceBackpropFilter(*bg, Xl.data(), xl.data(), dw.data());
    EXPECT_EQ(dot(y, X), dot(kernel, dw));
    ++adjointChecked;
  }
  EXPECT_EQ(checked, 400);
  EXPECT_GT(adjointChecked, 100);
  for (int n = 1; n <= 3; ++n)
    EXPECT_GT(perN[n], 50) << "N=" << n;
  EXPECT_GT(same, 100);
  EXPECT_GT(withOp, 100);
  EXPECT_GT(channelsFirst, 100);
}

TEST(ReferenceCrossCheck, Conv1dTransposeConsistencySweep) {
  // Spec §3.6 test_conv1d_transpose_consistency: input ones (1,3,1),
  // kernel arange(1..k) as (k,1,1), k 1..4, s 1..4, same/valid,
  // op in {None, 1..4} skipped if op >= s; plus op = 0 and dilations 1..3,
  // which the Keras sweep never exercises.
  int checked = 0;
  for (int64_t k = 1; k <= 4; ++k)
    for (int64_t s = 1; s <= 4; ++s)
      for (int64_t d = 1; d <= 3; ++d)
        for (auto p : {TransposePadding::Same, TransposePadding::Valid})
          for (int64_t opv : {-1, 0, 1, 2, 3, 4}) {
            if (opv >= s)
              continue;
            for (auto layout :
                 {DataLayout::ChannelsLast, DataLayout::ChannelsFirst}) {
              TrConfig c{layout, 1, 1, 1, {3}, {k}, {s}, {d}, p, std::nullopt};
              if (opv >= 0)
                c.op = Shape{opv};
              SCOPED_TRACE(describe(c));
              std::vector<double> x{1, 1, 1};
              auto kernel = arange(static_cast<size_t>(k));
              Shape naiveOut;
              auto expected = naiveTranspose(c, x, kernel, naiveOut);
              EXPECT_EQ(runReferenceTranspose(c, x, kernel), expected);
              ++checked;
            }
          }
  EXPECT_EQ(checked, 4 * 3 * 2 * (2 + 3 + 4 + 5) * 2);
}

} // namespace
