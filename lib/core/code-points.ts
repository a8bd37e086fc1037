/**
 * Compares two strings by Unicode code point (contract §2 and §4: ids and blockIds sort "by code point"), which
 * differs from JavaScript's UTF-16 `<` for characters above U+FFFF versus U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return weight(x) - weight(y);
  }
  return a.length - b.length;
}

/** Maps a UTF-16 code unit so that surrogates (code points >= U+10000) sort after every BMP unit. */
function weight(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
