/** Human sizes for messages: "812 bytes", "3.4 KiB", "1024.0 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) {
    return `${n} bytes`;
  }
  if (n < 1024 * 1024) {
    return `${(n / 1024).toFixed(1)} KiB`;
  }
  if (n < 1024 * 1024 * 1024) {
    return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  }
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
