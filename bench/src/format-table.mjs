// Plain-text tables for stdout.

/** Formats a number with `digits` decimals, thousands separated when large. */
export function fmt(value, digits = 2) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  if (Math.abs(value) >= 10000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}

/** `median [min–max]` of a stats object. */
export function spread(stats, digits = 2) {
  return `${fmt(stats.median, digits)} [${fmt(stats.min, digits)}–${fmt(stats.max, digits)}]`;
}

/** A ratio as `0.012×`, or `–`. */
export function ratio(value) {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${value < 0.1 ? value.toFixed(4) : value.toFixed(3)}×`;
}

/** Renders rows (arrays of strings) under `headers`, left-aligned first column, others right-aligned. */
export function table(headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]),
      )
      .join('  ');
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
