import { crc32, deflateRawSync } from "node:zlib";

/**
 * A ZIP file (PKWARE APPNOTE 6.3: deflated entries, UTF-8 names, no ZIP64) written as a stream,
 * one entry at a time as the reader asks: what an accountant's Windows or macOS opens with a
 * double click. Each entry is compressed whole before it is written, so its sizes and CRC go in
 * its local header; only the central directory (about 100 bytes an entry) is kept to the end.
 */

export type ZipEntry = { name: string; data: Uint8Array; modified?: Date };

/** Bit 11: the names are UTF-8. */
const UTF8_NAMES = 0x0800;
const DEFLATED = 8;
/** 2.0: deflate. */
const VERSION = 20;
/** ZIP without ZIP64 stops at 4 GiB and 65,535 entries: far beyond a period's records. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

/** MS-DOS time and date, in the local wall-clock time ZIP readers show. */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

type Written = { name: Buffer; crc: number; size: number; compressed: number; offset: number };

function localHeader(entry: Written, when: { time: number; day: number }): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(DEFLATED, 8);
  header.writeUInt16LE(when.time, 10);
  header.writeUInt16LE(when.day, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.compressed, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  return Buffer.concat([header, entry.name]);
}

function centralHeader(entry: Written, when: { time: number; day: number }): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(VERSION, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(DEFLATED, 10);
  header.writeUInt16LE(when.time, 12);
  header.writeUInt16LE(when.day, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressed, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

function endOfCentralDirectory(entries: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return end;
}

/** The entries as one ZIP file, read from `entries` only as fast as the stream is read. */
export function zipStream(entries: AsyncIterator<ZipEntry>): ReadableStream<Uint8Array> {
  const central: Buffer[] = [];
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await entries.next();
      if (next.done) {
        const directory = Buffer.concat(central);
        if (directory.length > 0) controller.enqueue(directory);
        controller.enqueue(endOfCentralDirectory(central.length, directory.length, offset));
        controller.close();
        return;
      }
      const { name, data, modified = new Date() } = next.value;
      const compressed = deflateRawSync(data);
      const entry: Written = {
        name: Buffer.from(name, "utf8"),
        crc: crc32(data),
        size: data.length,
        compressed: compressed.length,
        offset,
      };
      if (central.length >= MAX_ENTRIES || offset + compressed.length + 30 > MAX_BYTES)
        throw new Error("the ZIP file would need ZIP64");
      const when = dosDateTime(modified);
      const header = localHeader(entry, when);
      controller.enqueue(header);
      controller.enqueue(compressed);
      offset += header.length + compressed.length;
      central.push(centralHeader(entry, when));
    },
    async cancel() {
      await entries.return?.();
    },
  });
}
