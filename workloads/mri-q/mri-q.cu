// nvcc-flags: -arch=compute_80 -O3
// The Q matrix of non-Cartesian MRI reconstruction: for every voxel position x and every
// K-space sample k (a point of the scanner's trajectory with a complex value phi),
//   Q(x) = sum_k |phi_k|^2 exp(i 2 pi k . x),
// that is Qr = sum |phi|^2 cos(2 pi k . x) and Qi = sum |phi|^2 sin(2 pi k . x).
//
// mriq_phimag computes |phi|^2 = phiR^2 + phiI^2 per sample. mriq_q gives each thread one voxel
// and loops over the samples. Every thread of a launch reads the same sample at the same time,
// so the samples are in constant memory (a broadcast per warp); it holds CHUNK of them, and
// the host runs one launch per chunk, each adding its samples' terms to Qr and Qi in global
// memory.

#define THREADS 256
#define CHUNK 64

struct KSample {
  float kx, ky, kz, phiMag;
};

__constant__ KSample c_samples[CHUNK];

extern "C" __global__ void mriq_phimag(const float* __restrict__ phiR,
                                       const float* __restrict__ phiI,
                                       float* __restrict__ phiMag, int samples) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < samples) {
    const float re = phiR[k], im = phiI[k];
    phiMag[k] = re * re + im * im;
  }
}

// Adds the terms of the first `samples` entries of c_samples to Qr and Qi of every voxel.
extern "C" __global__ void mriq_q(const float* __restrict__ x, const float* __restrict__ y,
                                  const float* __restrict__ z, float* __restrict__ qr,
                                  float* __restrict__ qi, int voxels, int samples) {
  const int v = blockIdx.x * THREADS + threadIdx.x;
  if (v >= voxels) return;
  const float px = x[v], py = y[v], pz = z[v];
  float re = qr[v], im = qi[v];
  for (int k = 0; k < samples; ++k) {
    const KSample s = c_samples[k];
    const float angle = 6.2831853f * (s.kx * px + s.ky * py + s.kz * pz);
    float sinA, cosA;
    sincosf(angle, &sinA, &cosA);
    re = fmaf(s.phiMag, cosA, re);
    im = fmaf(s.phiMag, sinA, im);
  }
  qr[v] = re;
  qi[v] = im;
}
