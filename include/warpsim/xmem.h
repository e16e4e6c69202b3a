/* Expressive Memory (XMem) atoms: what a program knows about its data (value types, access
 * pattern, read/write character, intensity, reuse), given to the GPU as hints (Vijaykumar et
 * al., ISCA 2018; docs/user-guide.md "XMem atoms"). An atom is created once with its attributes,
 * which never change; it is then mapped to (and unmapped from) any ranges of device memory, and
 * activated or deactivated; the memory system honours the attributes of active atoms only.
 * Under warpsim the calls reach the timing model's atom management unit, caches and memory
 * placement; on a real GPU they are accepted and ignored. They never change what a program
 * computes.
 *
 * Build: include this header (nvcc -I<warpsim>/include) and link libwarpsim_xmem
 * (-L<warpsim>/lib -lwarpsim_xmem), which forwards to warpsim's libcudart when the program runs
 * under warpsim and does nothing otherwise.
 *
 * The paper's operators and these calls: CreateAtom = warpsimCreateAtom, AtomMap /
 * Atom2DMap / Atom3DMap = warpsimAtomMap / warpsimAtom2DMap / warpsimAtom3DMap, AtomActivate /
 * AtomDeactivate = warpsimAtomActivate / warpsimAtomDeactivate. Sizes and lengths are in bytes.
 * Every call returns 0 (cudaSuccess) or cudaErrorInvalidValue (1), after printing one line that
 * says what is wrong; an atom id from no warpsimCreateAtom is such an error.
 *
 * Kernels may map, unmap, activate and deactivate atoms themselves (warpsimAtomMapDevice and the
 * others, at the end of this header; compiled by nvcc only).
 */
#ifndef WARPSIM_XMEM_H
#define WARPSIM_XMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Data value properties: one bit each, any combination. */
enum {
  WARPSIM_ATOM_INT32 = 1u << 0,
  WARPSIM_ATOM_FLOAT32 = 1u << 1,
  WARPSIM_ATOM_CHAR8 = 1u << 2,
  WARPSIM_ATOM_SPARSE = 1u << 3,
  WARPSIM_ATOM_APPROXIMABLE = 1u << 4,
  WARPSIM_ATOM_POINTER = 1u << 5,
  WARPSIM_ATOM_INDEX = 1u << 6
};

typedef enum {
  WARPSIM_ATOM_REGULAR = 1,   /* a repeated stride (stride_bytes) */
  WARPSIM_ATOM_IRREGULAR = 2, /* a pattern that repeats within the data but has no stride (graphs) */
  WARPSIM_ATOM_NON_DET = 3    /* no repeated pattern */
} warpsimAtomPatternType;

typedef enum {
  WARPSIM_ATOM_READ_ONLY = 1,
  WARPSIM_ATOM_READ_WRITE = 2,
  WARPSIM_ATOM_WRITE_ONLY = 3
} warpsimAtomRwChar;

typedef struct {
  int32_t type;          /* warpsimAtomPatternType (held as int32_t: any value is refused by name) */
  int64_t stride_bytes;  /* REGULAR: the stride, in bytes (non-zero); otherwise 0 */
  uint8_t intensity;     /* how hot, relative to the program's other atoms (0: the coldest) */
} warpsimAtomAccessPattern;

typedef int32_t warpsimAtomId;

/* CREATE: an atom with these attributes; ids are given from 0 in the order of first calls. A call
 * at the same program point (file and line) always returns the same id, as the paper's compiler
 * makes every dynamic instance of one static CreateAtom the same atom; up to 256 atoms. reuse:
 * 0 none, larger is more reuse relative to other data. rw: warpsimAtomRwChar. Returns -1 after
 * its one-line error. */
warpsimAtomId warpsimCreateAtomAt(const char* file, int line, uint32_t data_properties,
                                  warpsimAtomAccessPattern pattern, uint8_t reuse, int32_t rw);
#define warpsimCreateAtom(data_properties, pattern, reuse, rw) \
  warpsimCreateAtomAt(__FILE__, __LINE__, (data_properties), (pattern), (reuse), (rw))

/* MAP (map_or_unmap = 1) or UNMAP (0) `size` bytes from `start`. A later map of the same bytes
 * to another atom wins; unmapping removes the atom from the bytes it still owns. */
int warpsimAtomMap(warpsimAtomId atom, const void* start, size_t size, int map_or_unmap);
/* A 2-D block of sizeX bytes x sizeY rows in a structure whose rows are lenX bytes long. */
int warpsimAtom2DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t sizeX, size_t sizeY,
                     int map_or_unmap);
/* A 3-D block of sizeX x sizeY x sizeZ in a structure of rows lenX bytes and planes lenY rows. */
int warpsimAtom3DMap(warpsimAtomId atom, const void* start, size_t lenX, size_t lenY, size_t sizeX,
                     size_t sizeY, size_t sizeZ, int map_or_unmap);

int warpsimAtomActivate(warpsimAtomId atom);
int warpsimAtomDeactivate(warpsimAtomId atom);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* Device side: a kernel issues the operations itself, as XMem's ISA instructions ATOM_MAP,
 * ATOM_UNMAP, ATOM_ACTIVATE and ATOM_DEACTIVATE, e.g. mapping each tile to an atom as its loop
 * reaches it:
 *
 *   if (threadIdx.x == 0) {
 *     warpsimAtom2DMapDevice(tile, a + row0 * n + col0, n * sizeof(float), 64 * sizeof(float), 64, 1);
 *     warpsimAtomActivateDevice(tile);
 *   }
 *
 * The arguments mean what the host calls' do (an atom from warpsimCreateAtom, passed to the
 * kernel; a device pointer; sizes in bytes). Every thread that makes a call issues one
 * operation, a warp's threads in lane order, so usually one thread of a CTA calls them. Under
 * warpsim each call is one instruction (the PTX front end decodes calls to the
 * warpsim_device_atom_* functions below by name; their bodies never run): the memory system's
 * caches apply the operation when the warp issues it, so the kernel's later accesses see it; the
 * launch's statistics count the operations (xmem.device_ops). An atom never created, a malformed
 * block or a block outside one device allocation stops the kernel with one line naming kernel,
 * thread and PTX line, as an illegal memory access does. Nothing returns a value; nothing a
 * kernel computes changes. On a real GPU each is a call to an empty function.
 *
 * Why the two layers: in whole-program mode (no -rdc) nvcc propagates arguments that every call
 * site passes alike (an atom id, a tile size) into a __noinline__ callee and drops those
 * parameters from its PTX signature, so the call would lose them. The wrappers pass each
 * argument through an empty asm that hides its value, and each callee uses every parameter in
 * an empty asm, so every call in the PTX passes all its arguments. Do not call the
 * warpsim_device_atom_* functions directly. */
extern "C" {
inline __device__ __noinline__ void warpsim_device_atom_map(warpsimAtomId atom, const void* start, size_t size,
                                                            int map_or_unmap) {
  asm volatile("" ::"r"(atom), "l"(start), "l"(size), "r"(map_or_unmap));
}
inline __device__ __noinline__ void warpsim_device_atom_map2d(warpsimAtomId atom, const void* start, size_t lenX,
                                                              size_t sizeX, size_t sizeY, int map_or_unmap) {
  asm volatile("" ::"r"(atom), "l"(start), "l"(lenX), "l"(sizeX), "l"(sizeY), "r"(map_or_unmap));
}
inline __device__ __noinline__ void warpsim_device_atom_map3d(warpsimAtomId atom, const void* start, size_t lenX,
                                                              size_t lenY, size_t sizeX, size_t sizeY, size_t sizeZ,
                                                              int map_or_unmap) {
  asm volatile("" ::"r"(atom), "l"(start), "l"(lenX), "l"(lenY), "l"(sizeX), "l"(sizeY), "l"(sizeZ),
               "r"(map_or_unmap));
}
inline __device__ __noinline__ void warpsim_device_atom_activate(warpsimAtomId atom) { asm volatile("" ::"r"(atom)); }
inline __device__ __noinline__ void warpsim_device_atom_deactivate(warpsimAtomId atom) {
  asm volatile("" ::"r"(atom));
}
}

/* MAP (map_or_unmap = 1) or UNMAP (0) `size` bytes from `start`, as warpsimAtomMap. */
static __device__ __forceinline__ void warpsimAtomMapDevice(warpsimAtomId atom, const void* start, size_t size,
                                                            int map_or_unmap) {
  asm volatile("" : "+r"(atom), "+l"(start), "+l"(size), "+r"(map_or_unmap));
  warpsim_device_atom_map(atom, start, size, map_or_unmap);
}
/* A 2-D block, as warpsimAtom2DMap. */
static __device__ __forceinline__ void warpsimAtom2DMapDevice(warpsimAtomId atom, const void* start, size_t lenX,
                                                              size_t sizeX, size_t sizeY, int map_or_unmap) {
  asm volatile("" : "+r"(atom), "+l"(start), "+l"(lenX), "+l"(sizeX), "+l"(sizeY), "+r"(map_or_unmap));
  warpsim_device_atom_map2d(atom, start, lenX, sizeX, sizeY, map_or_unmap);
}
/* A 3-D block, as warpsimAtom3DMap. */
static __device__ __forceinline__ void warpsimAtom3DMapDevice(warpsimAtomId atom, const void* start, size_t lenX,
                                                              size_t lenY, size_t sizeX, size_t sizeY, size_t sizeZ,
                                                              int map_or_unmap) {
  asm volatile("" : "+r"(atom), "+l"(start), "+l"(lenX), "+l"(lenY), "+l"(sizeX), "+l"(sizeY), "+l"(sizeZ),
               "+r"(map_or_unmap));
  warpsim_device_atom_map3d(atom, start, lenX, lenY, sizeX, sizeY, sizeZ, map_or_unmap);
}
static __device__ __forceinline__ void warpsimAtomActivateDevice(warpsimAtomId atom) {
  asm volatile("" : "+r"(atom));
  warpsim_device_atom_activate(atom);
}
static __device__ __forceinline__ void warpsimAtomDeactivateDevice(warpsimAtomId atom) {
  asm volatile("" : "+r"(atom));
  warpsim_device_atom_deactivate(atom);
}
#endif /* __CUDACC__ */

#endif /* WARPSIM_XMEM_H */
