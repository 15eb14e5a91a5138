import {
  defaultFileName,
  extensionFor,
  thumbnailUrlOf,
  uploadedFileName,
} from './asset-file-names';

const ID = '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d';

describe('asset file names', () => {
  it("names an asset nobody named after its kind, its id's random end and its type", () => {
    expect(defaultFileName('logo', ID, 'image/png')).toBe('logo-7a8b9c0d.png');
    expect(defaultFileName('landing-page', ID, 'text/html')).toBe(
      'landing-page-7a8b9c0d.html',
    );
    expect(extensionFor('application/octet-stream')).toBe('bin');
  });

  it("keeps an upload's own name, made safe, with its real type's extension", () => {
    const of = (sent: string | undefined, contentType = 'image/png') =>
      uploadedFileName(sent, { kind: 'logo', id: ID, contentType });
    expect(of('Acme Logo (final).PNG')).toBe('Acme-Logo-final.png');
    expect(of('C:\\Users\\me\\logo.svg', 'image/jpeg')).toBe('logo.jpg');
    expect(of('../../etc/passwd')).toBe('passwd.png');
    expect(of('<script>.png')).toBe('script.png');
    expect(of('...')).toBe('logo-7a8b9c0d.png');
    expect(of(undefined)).toBe('logo-7a8b9c0d.png');
    expect(of(`${'a'.repeat(300)}.png`)).toBe(`${'a'.repeat(100)}.png`);
  });

  it('a raster thumbnail is the 128 rendition, joining a signed query; SVG is its url; others none', () => {
    const url = 'https://api.example.com/api/projects/p/assets/a/content';
    expect(thumbnailUrlOf(url, 'image/webp')).toBe(`${url}?size=128`);
    expect(thumbnailUrlOf(`${url}?expires=1&signature=s`, 'image/png')).toBe(
      `${url}?expires=1&signature=s&size=128`,
    );
    expect(thumbnailUrlOf(url, 'image/svg+xml')).toBe(url);
    expect(thumbnailUrlOf(url, 'image/x-icon')).toBeNull();
    expect(thumbnailUrlOf(url, 'application/json')).toBeNull();
    expect(thumbnailUrlOf(url, 'application/json', 'wireframe')).toBe(
      `${url}?size=128`,
    );
    expect(
      thumbnailUrlOf(url, 'application/json', 'marketing-copy'),
    ).toBeNull();
  });
});
