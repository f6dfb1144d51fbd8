/** Types of build-server.mjs (a plain ES module so that `npm run build` needs no TypeScript runner). */
export declare const SERVER_BUNDLE: string;
export declare function buildServer(outfile?: string): Promise<string>;
