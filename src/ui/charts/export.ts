/**
 * Chart export: SVG markup and PNG rendering of a chart's <svg>, plus file download.
 * Charts style themselves with SVG presentation attributes (no external CSS), so the serialized
 * SVG looks the same as on screen.
 */

import { wrapText } from './placement';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** What the figure caption shows in HTML, drawn into the exported file so that it works as a slide. */
export interface ExportMeta {
  title: string;
  legend?: LegendKey[];
}
export interface LegendKey {
  label: string;
  color: string;
  dashed?: boolean;
  /** A filled square (areas, bars) instead of a line. */
  fill?: boolean;
  /** The series' marker shape (an SVG path centred on 0,0), drawn on the key's line. */
  symbol?: string;
  /** The band's hatch (a pattern id in the chart's <defs>), drawn over the square. */
  pattern?: string;
}

/** Header layout (pure): the title wrapped to `width` (17 px bold), then legend keys wrapped too (≈ 7.3 px per 13 px character). */
export function headerLayout(meta: ExportMeta, width: number): { height: number; title: string[]; keys: { key: LegendKey; x: number; y: number }[] } {
  const title = wrapText(meta.title, Math.max(80, width - 20), 17, true);
  let x = 10;
  let y = 24 + (title.length - 1) * TITLE_LINE + 24;
  const keys = (meta.legend ?? []).map((key) => {
    const w = 34 + key.label.length * 7.3 + 18;
    if (x > 10 && x + w > width - 10) {
      x = 10;
      y += 20;
    }
    const at = { key, x, y };
    x += w;
    return at;
  });
  return { height: keys.length ? y + 12 : 34 + (title.length - 1) * TITLE_LINE, title, keys };
}

const TITLE_LINE = 22;

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Standalone SVG document of `svg` (namespace, explicit size, white background), with title and legend when given. */
export function serializeSvg(svg: SVGSVGElement, meta?: ExportMeta): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const { width, height } = svg.getBoundingClientRect();
  for (const e of clone.querySelectorAll('[data-export="skip"]')) e.remove();
  const head = meta ? headerLayout(meta, width) : { height: 0, title: [], keys: [] };
  const body = el('g', { transform: `translate(0,${head.height})` });
  while (clone.firstChild) body.appendChild(clone.firstChild);
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('width', String(Math.round(width)));
  clone.setAttribute('height', String(Math.round(height + head.height)));
  clone.removeAttribute('style');
  clone.append(el('rect', { width: '100%', height: '100%', fill: 'white' }));
  if (meta) {
    head.title.forEach((line, i) => clone.append(el('text', { x: 10, y: 24 + i * TITLE_LINE, 'font-size': 17, 'font-weight': 700, fill: '#111' }, line)));
    for (const { key, x, y } of head.keys) {
      if (key.fill) clone.append(el('rect', { x, y: y - 11, width: 14, height: 14, fill: key.color }));
      else clone.append(el('line', { x1: x, x2: x + 26, y1: y - 4, y2: y - 4, stroke: key.color, 'stroke-width': 3, ...(key.dashed ? { 'stroke-dasharray': '7 4' } : {}) }));
      if (key.fill && key.pattern) clone.append(el('rect', { x, y: y - 11, width: 14, height: 14, fill: `url(#${key.pattern})` }));
      if (key.symbol) clone.append(el('path', { d: key.symbol, transform: `translate(${x + 13},${y - 4})`, fill: key.color, stroke: key.color }));
      clone.append(el('text', { x: x + (key.fill ? 20 : 32), y, 'font-size': 13, fill: '#222' }, key.label));
    }
  }
  clone.append(body);
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

/** Render `svg` to a PNG blob at `scale` × its on-screen size. */
export async function svgToPng(svg: SVGSVGElement, scale = 2, meta?: ExportMeta): Promise<Blob> {
  const { width } = svg.getBoundingClientRect();
  const height = svg.getBoundingClientRect().height + (meta ? headerLayout(meta, width).height : 0);
  const url = URL.createObjectURL(new Blob([serializeSvg(svg, meta)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('2d canvas unavailable');
    ctx.fillStyle = 'white';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((ok, fail) =>
      canvas.toBlob((b) => (b ? ok(b) : fail(new Error('PNG encoding failed'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Save `data` as a file named `filename` through a temporary link. */
export function download(data: Blob | string, filename: string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** File-name-safe slug of a chart title. */
export function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'chart'
  );
}

export async function exportPng(svg: SVGSVGElement, title: string, legend: LegendKey[] = []): Promise<void> {
  download(await svgToPng(svg, 2, { title, legend }), `${slug(title)}.png`);
}

export function exportSvg(svg: SVGSVGElement, title: string, legend: LegendKey[] = []): void {
  download(serializeSvg(svg, { title, legend }), `${slug(title)}.svg`, 'image/svg+xml');
}
