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

/** Text a person typed, ended as a sentence: a full stop unless it ends with one, a question or exclamation mark or an ellipsis (before closing quotes or brackets). */
export function asSentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?…]["'”’)\]]*$/.test(t) ? t : `${t}.`;
}
