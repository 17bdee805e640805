/** Where each page's slice of a tall image starts and how tall it is (the last one shorter). */
export function pageSlices(imageHeight: number, sliceHeight: number): { top: number; height: number }[] {
  const slices: { top: number; height: number }[] = [];
  for (let top = 0; top < imageHeight; top += sliceHeight) {
    slices.push({ top, height: Math.min(sliceHeight, imageHeight - top) });
  }
  return slices;
}
