// Types of build-state.js, which stays JavaScript so that bin.js can load it without tsx.
export declare const ROOT: string;
export declare const BUILD_DIR: string;
export declare const MANIFEST: string;
export declare const MANIFEST_VERSION: number;
export interface BuildManifest {
  readonly version: number;
  /** [path from the root, mtimeMs, size, content hash] */
  readonly inputs: [string, number, number, string][];
  /** Output name (e.g. `cli/main`) → the inputs it was compiled from. */
  readonly outputs: Record<string, string[]>;
}
export declare function hashFile(path: string): string;
export declare function readManifest(buildDir?: string): BuildManifest | undefined;
export declare function writeManifest(buildDir: string, manifest: BuildManifest): void;
export declare function buildState(
  buildDir?: string,
  root?: string,
): { missing: boolean; changed: string[]; manifest: BuildManifest | undefined };
export declare function buildIsCurrent(buildDir?: string, root?: string): boolean;
