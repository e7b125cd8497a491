/** Number of the first `length` elements of the ascending `values` that are ≤ `value` (binary search). */
export function upperBound(values: ArrayLike<number>, value: number, length = values.length): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
