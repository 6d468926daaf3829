// HOST:PORT as a person writes it and every program reads it back: an IPv6 address in brackets
// (`[2001:db8::1]:53`), so its last group is not read as the port.
export const hostPort = (host: string, port: number | string): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
