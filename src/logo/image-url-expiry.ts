/**
 * When an image API's own signed URL stops working, as the URL itself
 * says: Azure Blob SAS (`se=`, OpenAI's DALL·E URLs), S3 and R2
 * presigned (`X-Amz-Date` + `X-Amz-Expires`), Google Cloud Storage v4
 * (`X-Goog-Date` + `X-Goog-Expires`) and v2 or CloudFront (`Expires=`,
 * epoch seconds). Undefined when it says nothing readable: the answer
 * then states no expiry rather than a guess.
 */
export function expiryOfImageUrl(url: string): Date | undefined {
  let query: URLSearchParams;
  try {
    query = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const azure = query.get('se');
  if (azure !== null) return validDate(Date.parse(azure));
  for (const vendor of ['Amz', 'Goog']) {
    const signedAt = query.get(`X-${vendor}-Date`);
    const seconds = query.get(`X-${vendor}-Expires`);
    if (signedAt !== null && seconds !== null && /^\d{1,7}$/.test(seconds)) {
      return validDate(compactTime(signedAt) + Number(seconds) * 1000);
    }
  }
  const expires = query.get('Expires');
  if (expires !== null && /^\d{9,11}$/.test(expires)) {
    return validDate(Number(expires) * 1000);
  }
  return undefined;
}

/** `20261129T033000Z`, as AWS and Google sign. */
function compactTime(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

const validDate = (ms: number): Date | undefined =>
  Number.isFinite(ms) ? new Date(ms) : undefined;
