// A fixed-capacity FIFO over a buffer allocated once at construction: the queues of the memory
// hierarchy (LSU accesses, interconnect ports, DRAM returns) never allocate while simulating.
#pragma once
#include <cassert>
#include <cstdint>
#include <vector>

namespace warpsim::timing::mem {

template <class T>
class RingBuffer {
 public:
  RingBuffer() = default;
  explicit RingBuffer(uint32_t capacity)
      : slots_(capacity == 0 ? 1 : capacity), capacity_(capacity) {}

  uint32_t capacity() const { return capacity_; }
  uint32_t size() const { return size_; }
  uint32_t freeSlots() const { return capacity_ - size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == capacity_; }

  // The caller checks !full().
  void push(const T& value) {
    assert(!full());
    slots_[wrap(head_ + size_)] = value;
    ++size_;
  }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  // i-th element from the front (0 = front).
  T& at(uint32_t i) { return slots_[wrap(head_ + i)]; }
  const T& at(uint32_t i) const { return slots_[wrap(head_ + i)]; }
  void pop() {
    assert(!empty());
    head_ = wrap(head_ + 1);
    --size_;
  }
  // Removes the i-th element from the front, the others keeping their order. The i elements in
  // front of it move back one slot, so erasing near the front (the crossbar's lookahead) is cheap.
  void erase(uint32_t i) {
    assert(i < size_);
    for (uint32_t k = i; k > 0; --k) at(k) = at(k - 1);
    pop();
  }
  void clear() { head_ = size_ = 0; }

 private:
  uint32_t wrap(uint32_t i) const { return i >= capacity_ ? i - capacity_ : i; }
  std::vector<T> slots_;
  uint32_t capacity_ = 0;
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};

}  // namespace warpsim::timing::mem
