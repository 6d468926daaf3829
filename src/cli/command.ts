// What a command is: its declaration (name, flags, settings, how to load it) and what its
// handler receives. In a file of its own so that commands and the registry that lists them
// do not import each other.
import type { FlagValues } from '../config/load.js';
import type { Io } from './io.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  describe: string;
  default?: string;
}

export interface CommandContext {
  flags: FlagValues;
  positionals: string[];
  io: Io;
  /**
   * Every command's declaration: given by main, so a command that lists them (completion) need not import the registry
   * that imports it.
   */
  commands: readonly CommandSpec[];
}

type Handler = (context: CommandContext) => Promise<number>;

export interface CommandSpec {
  name: string;
  usage: string;
  describe: string;
  /** Reads the configuration table's settings (flags and variables). */
  settings: boolean;
  flags: Record<string, FlagSpec>;
  positionals?: boolean;
  /** The command reads its own arguments (API parameters are named by the operation). */
  freeArguments?: boolean;
  /** Actions named by the first argument (`gateway keygen`), each with a help of its own. */
  actions?: Record<string, { usage: string; describe: string; flags?: string[] }>;
  /** How many leading arguments are positionals taken as they are, even when they start with "-". */
  literalArguments?: (args: string[]) => number;
  load: () => Promise<{ run: Handler }>;
}
