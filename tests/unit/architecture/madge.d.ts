/** The part of madge's API (8.0.0, untyped) that tests/unit/architecture/import-circles.test.ts uses. */
declare module "madge" {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
  }
  interface MadgeInstance {
    /** Each circle as the files on it, relative to baseDir. */
    circular(): string[][];
    /** Imports madge could not resolve to a file (packages are not followed). */
    warnings(): { skipped: string[] };
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeInstance>;
}
