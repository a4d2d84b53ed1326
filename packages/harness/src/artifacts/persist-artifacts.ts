import { type ToolContent, ToolResult } from '@tiny/tools';
import type { ArtifactRef, ArtifactStore } from './artifact-store.js';
import { artifactReferenceLine } from './artifact-uri.js';

/** Where a result came from. @internal */
export interface ArtifactSource {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
}

function extension(mediaType: string): string {
  const subtype = mediaType.split('/')[1]?.split(/[+;]/)[0]?.trim() ?? '';
  if (subtype === 'jpeg') return 'jpg';
  if (subtype === 'plain') return 'txt';
  return /^[a-z0-9.-]{1,16}$/i.test(subtype) ? subtype : 'bin';
}

/** Cuts UTF-8 text to at most `maxBytes` bytes without splitting a character. */
function cutBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.max(0, maxBytes);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * Moves what the model should not get inline into the store: every image and file block with inline
 * (base64) data becomes a text block holding its reference line, and when the result's text is
 * still over `maxResultBytes` the whole text is stored and the model gets the text cut at the limit
 * plus the reference line. URL and path blocks already are references and stay as they are. The
 * returned result keeps the error flag, follow-ups, metadata and control of the original; it is the
 * same object when nothing was stored.
 * @internal
 */
export async function persistArtifacts(
  store: ArtifactStore,
  source: ArtifactSource,
  result: ToolResult,
  maxResultBytes: number | undefined,
): Promise<{ readonly result: ToolResult; readonly refs: readonly ArtifactRef[] }> {
  const refs: ArtifactRef[] = [];
  const put = async (data: Uint8Array | string, mediaType: string, name: string) => {
    const ref = await store.put(data, { mediaType, name, runId: source.runId, callId: source.callId });
    refs.push(ref);
    return ref;
  };
  let images = 0;
  const content: ToolContent[] = [];
  for (const block of result.content) {
    if ((block.type === 'image' || block.type === 'file') && block.data.kind === 'base64') {
      const bytes = Buffer.from(block.data.value, 'base64');
      images += block.type === 'image' ? 1 : 0;
      const name =
        block.type === 'file' ? block.name : `${source.toolName}-image-${images}.${extension(block.mediaType)}`;
      const ref = await put(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), block.mediaType, name);
      content.push({ type: 'text', text: artifactReferenceLine(ref) });
    } else {
      content.push(block);
    }
  }
  let current = refs.length === 0 ? result : rebuild(result, content, result.markdownFormatted);
  if (maxResultBytes !== undefined) {
    const text = current.output();
    const markdown = current.markdownFormatted;
    const over = (value: string | undefined) =>
      value !== undefined && Buffer.byteLength(value, 'utf8') > maxResultBytes;
    if (over(text) || over(markdown)) {
      const onlyJson = current.content.length === 1 && current.content[0]?.type === 'json';
      const ref = await put(
        text,
        onlyJson ? 'application/json' : 'text/plain',
        `${source.toolName}-result.${onlyJson ? 'json' : 'txt'}`,
      );
      const shown = `${cutBytes(text, maxResultBytes)}\n${artifactReferenceLine(ref)}`;
      current = rebuild(current, [{ type: 'text', text: shown }], undefined);
    }
  }
  return { result: current, refs };
}

function rebuild(result: ToolResult, content: readonly ToolContent[], markdown: string | undefined): ToolResult {
  const json = result.toJSON();
  delete json.markdownFormatted;
  return ToolResult.fromJSON({ ...json, content, ...(markdown === undefined ? {} : { markdownFormatted: markdown }) });
}
