/* Locality descriptors: what a program knows about the locality of its data structures, given to
 * the GPU as hints (the Locality Descriptor, Vijaykumar et al., ISCA 2018; docs/user-guide.md
 * "Locality descriptors"). Under warpsim they reach the timing model's CTA scheduler, caches,
 * prefetcher and memory placement; on a real GPU they are accepted and ignored. They never change
 * what a program computes.
 *
 * Build: include this header (nvcc -I<warpsim>/include) and link libwarpsim_locality
 * (-L<warpsim>/lib -lwarpsim_locality). That small library forwards to warpsim's libcudart when
 * the program runs under warpsim and does nothing otherwise.
 *
 * One descriptor describes one data structure: a dense array of dims (x, y, z) elements of
 * `element_bytes` bytes at `base` (x fastest), tiled into data tiles (D-Tiles) of `data_tile`
 * elements; each D-Tile is used by the CTAs of one compute tile (C-Tile) of `compute_tile` CTAs.
 * C-Tiles and D-Tiles pair one to one, D-Tiles taken in x, y, z order and C-Tiles in the order of
 * `compute_data_map` (the rank of each grid dimension; 0: the grid has one C-Tile along it).
 * A structure with several kinds of locality gets several descriptors; the one with the larger
 * `priority` wins where they disagree.
 */
#ifndef WARPSIM_LOCALITY_H
#define WARPSIM_LOCALITY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  WARPSIM_INTRA_THREAD = 1, /* each thread reuses its own data (C-Tile: one CTA's threads) */
  WARPSIM_INTER_THREAD = 2, /* threads of a C-Tile share its D-Tile */
  WARPSIM_NO_REUSE = 3      /* streamed once */
} warpsimLocalityType;

typedef enum {
  WARPSIM_COACCESSED = 1, /* the whole D-Tile is used by every thread of its C-Tile */
  WARPSIM_NEARBY = 2      /* neighbouring threads use neighbouring elements */
} warpsimSharingType;

typedef enum {
  WARPSIM_REGULAR = 1,  /* accesses walk the D-Tile at `stride` elements */
  WARPSIM_IRREGULAR = 2
} warpsimAccessPattern;

typedef struct {
  uint32_t x, y, z;
} warpsimDim3;

typedef struct {
  const void* base;              /* device address of the structure */
  warpsimDim3 dims;              /* elements per dimension */
  uint32_t element_bytes;        /* bytes per element */
  /* The three kinds below are warpsimLocalityType, warpsimSharingType and warpsimAccessPattern
   * values, held as int32_t so that any value a program passes is well defined (and refused by
   * name when it is none of them). */
  int32_t type;                  /* warpsimLocalityType */
  warpsimDim3 data_tile;         /* elements per dimension of a D-Tile */
  warpsimDim3 compute_tile;      /* CTAs per grid dimension of a C-Tile */
  warpsimDim3 compute_data_map;  /* traversal rank of each grid dimension (1 first; 0: one C-Tile) */
  int32_t sharing;               /* warpsimSharingType */
  int32_t pattern;               /* warpsimAccessPattern */
  uint64_t stride;               /* elements between successive accesses (REGULAR) */
  int32_t priority;              /* larger wins */
} warpsimLocalityDescriptor;

/* Adds a descriptor for the launches of `kernel` (its name as the program declares it, e.g.
 * "histo_main"; NULL: the next launch only). Descriptors of a kernel stay until cleared; several
 * may describe one structure. Returns 0 (cudaSuccess), or 1 (cudaErrorInvalidValue) for a
 * descriptor that is not consistent, with a one-line message on stderr naming the field. */
int warpsimLocalityDescriptorAdd(const warpsimLocalityDescriptor* descriptor, const char* kernel);

/* Removes the descriptors of `kernel` (NULL: those waiting for the next launch). Returns 0. */
int warpsimLocalityDescriptorsClear(const char* kernel);

#ifdef __cplusplus
}
#endif

#endif /* WARPSIM_LOCALITY_H */
