/* Preloaded by the occupied-base test case: maps the first MiB of the simulated device's
   address range (0x7f0000000000) before the runtime starts, as an unlucky library placement
   would. Managed memory must still work. */
#include <sys/mman.h>

__attribute__((constructor)) static void occupyDeviceBase(void) {
  mmap((void*)0x7f0000000000ull, 1 << 20, PROT_READ,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
}
