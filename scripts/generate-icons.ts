// Writes public/icon-192.png and public/icon-512.png (the installable app's icons, decision 014): a green
// square with a white ball, drawn pixel by pixel and encoded as PNG with node's zlib (no image tool needed).
// Run: npx tsx scripts/generate-icons.ts
import { deflateSync } from "node:zlib";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const GREEN = [0x15, 0x80, 0x3d];
const WHITE = [0xff, 0xff, 0xff];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function icon(size: number): Buffer {
  const rows: Buffer[] = [];
  const c = size / 2;
  const ball = size * 0.3;
  const ring = size * 0.045;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      // A white ball with a green ring and a green centre patch (maskable: all inside the safe zone).
      const patch = Math.hypot(x + 0.5 - c, y + 0.5 - c) < ball * 0.32;
      const colour = d < ball && !(d > ball - ring) && !patch ? WHITE : GREEN;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "public");
for (const size of [192, 512]) writeFileSync(path.join(out, `icon-${size}.png`), icon(size));
console.log("wrote public/icon-192.png and public/icon-512.png");
