export { encodeKey } from './encode-key.js';
export { encodeKeySequence, type KeySequenceRequest } from './encode-sequence.js';
export { findKey, KEY_TABLE, type KeyDefinition, keyNames, type XtermModifiedForm } from './key-table.js';
export { encodePaste, PASTE_END, PASTE_START, type PasteOptions, stripPasteMarkers } from './paste.js';
