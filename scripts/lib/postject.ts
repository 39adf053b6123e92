/**
 * postject's `inject`, typed (the package ships JavaScript only): writes a resource into an ELF,
 * Mach-O or PE executable and flips the sentinel fuse that tells the program it is there.
 */
import { createRequire } from "node:module";

/** Options of postject's `inject`. */
export interface InjectOptions {
  /** The fuse string compiled into the executable (Node: `NODE_SEA_FUSE_<hash>`). */
  sentinelFuse: string;
  /** The Mach-O segment to put the resource in (Node reads `NODE_SEA`). */
  machoSegmentName?: string;
  overwrite?: boolean;
}

type Inject = (file: string, resourceName: string, data: Buffer, options: InjectOptions) => Promise<void>;

const require = createRequire(import.meta.url);
const postjectInject = (require("postject") as { inject: Inject }).inject;

/**
 * LIEF (inside postject) prints one line per ELF note section it cannot name, a few hundred for
 * Node's Linux executables; the executable it writes is right (it runs, and the tests read it).
 */
const HARMLESS = /^warning: Can't find string offset for section name/;

/**
 * Injects `data` as `resourceName` into the executable `file`, in place. LIEF's known harmless
 * warnings are dropped; anything else it prints is passed on.
 */
export async function inject(
  file: string,
  resourceName: string,
  data: Buffer,
  options: InjectOptions,
): Promise<void> {
  // postject binds console.log and console.warn when its module loads, inside each call.
  const { log, warn } = console;
  const filter =
    (print: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (!(args.length === 1 && typeof args[0] === "string" && HARMLESS.test(args[0]))) print(...args);
    };
  console.log = filter(log);
  console.warn = filter(warn);
  try {
    await postjectInject(file, resourceName, data, options);
  } finally {
    console.log = log;
    console.warn = warn;
  }
}
