// What a failed file operation's code means, in words a user reads ("no such file", not ENOENT).

const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EISDIR: 'a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'a symbolic link (not followed)',
  ENOSPC: 'no space left on the device',
  EROFS: 'a read-only file system',
  EEXIST: 'already exists',
};

/** The error's code in words (the code itself when it has no words here), or its message when it has no code. */
export function errnoText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code) return WORDS[code] ?? code;
  return (error as Error).message ?? String(error);
}
