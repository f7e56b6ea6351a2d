import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A ZIP file (PKWARE APPNOTE 6.3: deflated entries, UTF-8 names, no ZIP64) written as a stream,
 * as the reader asks: what an accountant's Windows or macOS opens with a double click. An entry
 * given whole is compressed whole, so its sizes and CRC go in its local header; an entry given
 * as chunks (a spreadsheet of a million rows) is compressed chunk by chunk, each ending on a
 * sync flush so that the pieces make one deflate stream, and its sizes and CRC follow it in a
 * data descriptor (APPNOTE 4.3.9). Only the central directory (about 100 bytes an entry) is
 * kept to the end.
 */

export type ZipEntry = {
  name: string;
  data: Uint8Array | AsyncIterable<Uint8Array>;
  modified?: Date;
};

/** Bit 11: the names are UTF-8. */
const UTF8_NAMES = 0x0800;
/** Bit 3: the CRC and sizes are in a data descriptor after the data. */
const DATA_DESCRIPTOR = 0x0008;
/** An empty final deflate block: the end of a stream written in sync-flushed pieces. */
const FINAL_BLOCK = deflateRawSync(new Uint8Array());
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

type Written = {
  name: Buffer;
  flags: number;
  crc: number;
  size: number;
  compressed: number;
  offset: number;
};

function localHeader(entry: Written, when: { time: number; day: number }): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(entry.flags, 6);
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
  header.writeUInt16LE(entry.flags, 8);
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

function dataDescriptor(entry: Written): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.compressed, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

const isWhole = (data: ZipEntry["data"]): data is Uint8Array => data instanceof Uint8Array;

/** The entries as one ZIP file, read from `entries` only as fast as the stream is read. */
export function zipStream(entries: AsyncIterator<ZipEntry>): ReadableStream<Uint8Array> {
  const central: Buffer[] = [];
  let offset = 0;
  /** The entry being written chunk by chunk, between pulls. */
  let open:
    | { entry: Written; when: ReturnType<typeof dosDateTime>; chunks: AsyncIterator<Uint8Array> }
    | undefined;

  const fits = (bytes: number) => {
    if (central.length >= MAX_ENTRIES || offset + bytes > MAX_BYTES)
      throw new Error("the ZIP file would need ZIP64");
  };
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Buffer) => {
    fits(bytes.length);
    controller.enqueue(bytes);
    offset += bytes.length;
  };

  /** One more piece of the open entry, or its end: the last block and the data descriptor. */
  async function continueOpen(controller: ReadableStreamDefaultController<Uint8Array>) {
    const { entry, when, chunks } = open!;
    let next = await chunks.next();
    // An empty chunk adds nothing (and zlib's crc32 of zero bytes has answered 0 under tsx);
    // every pull must write something, or the stream waits for ever.
    while (!next.done && next.value.length === 0) next = await chunks.next();
    if (!next.done) {
      const piece = deflateRawSync(next.value, { finishFlush: constants.Z_SYNC_FLUSH });
      entry.crc = crc32(next.value, entry.crc);
      entry.size += next.value.length;
      entry.compressed += piece.length;
      emit(controller, piece);
      return;
    }
    entry.compressed += FINAL_BLOCK.length;
    emit(controller, FINAL_BLOCK);
    emit(controller, dataDescriptor(entry));
    central.push(centralHeader(entry, when));
    open = undefined;
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (open) return continueOpen(controller);
      const next = await entries.next();
      if (next.done) {
        const directory = Buffer.concat(central);
        if (directory.length > 0) controller.enqueue(directory);
        controller.enqueue(endOfCentralDirectory(central.length, directory.length, offset));
        controller.close();
        return;
      }
      const { name, data, modified = new Date() } = next.value;
      const when = dosDateTime(modified);
      const entry: Written = {
        name: Buffer.from(name, "utf8"),
        flags: UTF8_NAMES,
        crc: 0,
        size: 0,
        compressed: 0,
        offset,
      };
      if (!isWhole(data)) {
        entry.flags |= DATA_DESCRIPTOR;
        emit(controller, localHeader(entry, when));
        open = { entry, when, chunks: data[Symbol.asyncIterator]() };
        return;
      }
      const compressed = deflateRawSync(data);
      Object.assign(entry, { crc: crc32(data), size: data.length, compressed: compressed.length });
      fits(compressed.length + 30);
      emit(controller, localHeader(entry, when));
      emit(controller, compressed);
      central.push(centralHeader(entry, when));
    },
    async cancel() {
      await open?.chunks.return?.();
      await entries.return?.();
    },
  });
}
