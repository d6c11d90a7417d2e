// Copies one of the web shell's scripts into the site without its comments: the source in web/ keeps them (the
// page's API reference is kplace.js's header), the page sends a third of the bytes (about 10 KB less gzip over
// kplace.js, js/*.js and kplace-worker.js). The comments are found by parsing (acorn, Debian's node-acorn, which
// Emscripten's own JS optimiser uses), never by pattern, so nothing inside a string, a template or a regular
// expression is touched; only a comment and the blanks before it go, and a line it leaves empty. A script that does
// not parse fails the build here, not in a visitor's browser.
// Usage: NODE_PATH=/usr/share/nodejs node scripts/strip-js-comments.cjs IN OUT
'use strict';
const fs = require('fs');
const acorn = require('acorn');

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: strip-js-comments.cjs IN OUT');
  process.exit(2);
}
const src = fs.readFileSync(input, 'utf8');

function comments(sourceType) {
  const found = [];
  acorn.parse(src, { ecmaVersion: 'latest', sourceType, onComment: (block, text, start, end) => found.push([start, end]) });
  found.sourceType = sourceType;
  return found;
}
let found;
try {
  found = comments('module');
} catch (moduleError) {
  try {
    found = comments('script');  // a classic script (a worker may be one)
  } catch (e) {
    console.error(`${input}: ${e.message}`);
    process.exit(1);
  }
}

let out = '';
let at = 0;
for (let [start, end] of found) {
  const lineBreak = src.slice(start, end).includes('\n');  // a line terminator for automatic semicolons
  while (start > at && (src[start - 1] === ' ' || src[start - 1] === '\t')) --start;
  const lineStart = start === 0 || src[start - 1] === '\n';
  let keep = '';
  if (lineStart && src[end] === '\n') ++end;  // the comment was the whole line: the line goes
  else if (lineBreak) keep = '\n';
  else if (!lineStart && end < src.length && !/\s/.test(src[end])) keep = ' ';  // a/**/b stays two tokens
  out += src.slice(at, start) + keep;
  at = end;
}
out += src.slice(at);
try {
  acorn.parse(out, { ecmaVersion: 'latest', sourceType: found.sourceType });
} catch (e) {
  console.error(`${input}: no longer parses without its comments: ${e.message}`);
  process.exit(1);
}
fs.writeFileSync(output, out);
