// The helper lives in text/, where the layers below the CLI (address sources) reach it too.
export { nearestNames } from '../lib/nearest-names.js';
