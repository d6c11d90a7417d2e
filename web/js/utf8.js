// A string into a wasm module's heap as UTF-8, shared by the page (js/app.js imports it) and the Web Worker
// (kplace-worker.js, importScripts): a plain script with no import or export, so both can load it; it sets
// self.kplaceToUTF8. One function for both, so a text the app and a worker are both given is the same bytes in both.
//
// The browser's TextEncoder writes straight into the heap (Emscripten's stringToUTF8 is a loop in JS: a 67 MB
// import took 0.35 s of a frame, now 0.18 s). An ASCII text is as many bytes as characters; a text with other
// characters is encoded once more at its real length. Lone surrogates become U+FFFD, as TextEncoder does.
// Returns the pointer (malloc'ed, NUL-terminated): the caller frees it.
'use strict';
self.kplaceToUTF8 = function kplaceToUTF8(mod, text) {
  let ptr = mod._malloc(text.length + 1);
  const { read, written } = new TextEncoder().encodeInto(text, mod.HEAPU8.subarray(ptr, ptr + text.length));
  let size = written;
  if (read < text.length) {
    mod._free(ptr);
    const bytes = new TextEncoder().encode(text);
    ptr = mod._malloc(bytes.length + 1);
    mod.HEAPU8.set(bytes, ptr);
    size = bytes.length;
  }
  mod.HEAPU8[ptr + size] = 0;
  return ptr;
};

// A text as kplaceToUTF8 puts it in the heap, or UTF-8 bytes (a Uint8Array) as they are.
self.kplaceToHeap = function kplaceToHeap(mod, text) {
  if (!(text instanceof Uint8Array)) return self.kplaceToUTF8(mod, text);
  const ptr = mod._malloc(text.length + 1);
  mod.HEAPU8.set(text, ptr);
  mod.HEAPU8[ptr + text.length] = 0;
  return ptr;
};
