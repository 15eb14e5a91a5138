/**
 * The Redis Cluster slot of a key, computed as the Redis Cluster
 * specification defines it: CRC16 (XMODEM: polynomial 0x1021, initial value
 * 0) of the key's hash tag — the text between its first `{` and the first
 * `}` after it, when not empty — or of the whole key, modulo 16384.
 */

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

export function clusterKeySlot(key: string): number {
  let hashed = key;
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) hashed = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(hashed, 'utf8')) % 16384;
}
