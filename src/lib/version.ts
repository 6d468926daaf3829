declare const __DDEDGE_VERSION__: string;

/** ddedge's version, fixed at build time. */
export const VERSION: string = typeof __DDEDGE_VERSION__ === 'string' ? __DDEDGE_VERSION__ : '0.0.0-dev';
export const USER_AGENT = `ddedge/${VERSION} (+dynamic DNS agent; Node.js ${process.versions.node})`;
