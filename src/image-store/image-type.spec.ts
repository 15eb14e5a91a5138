import { inflateSync } from 'node:zlib';
import { drawLogoPng } from '../../dev-servers/image-api/logo-png';
import { sniffImageType, SVG_TYPE } from './image-type';

describe('sniffImageType', () => {
  it('knows PNG, JPEG and WebP by their first bytes', () => {
    expect(
      sniffImageType(
        drawLogoPng({ companyName: 'A', style: 'modern', colors: [] }),
      )?.mediaType,
    ).toBe('image/png');
    expect(
      sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.extension,
    ).toBe('jpg');
    expect(
      sniffImageType(
        Buffer.concat([
          Buffer.from('RIFF'),
          Buffer.alloc(4),
          Buffer.from('WEBPVP8 '),
        ]),
      )?.mediaType,
    ).toBe('image/webp');
  });

  it.each([
    ['SVG', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['HTML', '<!doctype html><script>alert(1)</script>'],
    ['GIF', 'GIF89a......'],
    ['empty', ''],
  ])('refuses %s', (_name, text) => {
    expect(sniffImageType(Buffer.from(text))).toBeUndefined();
  });
});

describe('the dev image API PNG', () => {
  it('is a 1024x1024 RGBA PNG whose pixels inflate to the full image', () => {
    const png = drawLogoPng({
      companyName: 'Acme Rockets',
      style: 'geometric',
      colors: ['navy', '#ffd700'],
    });
    expect(png.readUInt32BE(16)).toBe(1024);
    expect(png.readUInt32BE(20)).toBe(1024);
    expect(png[25]).toBe(6);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('latin1', 37, 41)).toBe('IDAT');
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    expect(rows.length).toBe(1024 * (1024 * 4 + 1));
    // The centre of the hexagon is navy; a corner is transparent.
    const pixel = (x: number, y: number) =>
      rows.subarray(y * 4097 + 1 + x * 4, y * 4097 + 5 + x * 4);
    expect([...pixel(512, 650)]).toEqual([0, 0, 128, 255]);
    expect([...pixel(5, 5)]).toEqual([0, 0, 0, 0]);
  });
});

describe('SVG, where it was asked for', () => {
  const svg = (text: string) =>
    sniffImageType(Buffer.from(text), { svg: true });

  it.each([
    ['a bare root', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    [
      'an XML declaration, a comment and a byte order mark',
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<svg viewBox="0 0 10 10"><rect/></svg>',
    ],
    [
      'a root holding script (served sandboxed)',
      '<svg><script>alert(1)</script></svg>',
    ],
  ])('takes %s as image/svg+xml', (_name, text) => {
    expect(svg(text)).toEqual(SVG_TYPE);
  });

  it.each([
    [
      'a DOCTYPE (entities)',
      '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>',
    ],
    ['an entity later on', '<svg><!ENTITY a "x"></svg>'],
    ['HTML', '<!doctype html><svg></svg>'],
    ['another root', '<html><svg/></html>'],
    ['text before the root', 'hello <svg/>'],
    [
      'bytes that are not UTF-8',
      Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0x3e]),
    ],
  ])('refuses %s', (_name, text: string | Buffer) => {
    expect(sniffImageType(Buffer.from(text), { svg: true })).toBeUndefined();
  });

  it('is never taken unless asked for', () => {
    expect(sniffImageType(Buffer.from('<svg/>'))).toBeUndefined();
  });
});
