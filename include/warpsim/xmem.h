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

#endif /* WARPSIM_XMEM_H */
