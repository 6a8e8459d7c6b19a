// Types of build-state.js, which stays JavaScript so that bin.js can load it without tsx.
export declare const ROOT: string;
export declare const BUILD_DIR: string;
export declare const MANIFEST: string;
export declare function buildIsCurrent(buildDir?: string, root?: string): boolean;
