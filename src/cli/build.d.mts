// Types of build.mjs, which stays JavaScript so that npm's prepare script runs it without tsx.
export declare function build(outDir?: string): Promise<{ files: number; inputs: number }>;
export declare function rebuild(outDir?: string): Promise<{ files: number; whole: boolean }>;
