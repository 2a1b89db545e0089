/** The URLs a page asks for its bundled scripts and stylesheets (`registerClientAssets`, pages/assets.ts). */
export interface ClientAssets {
  /** The URL of the script bundled from `src/client/<name>.ts`. */
  script(name: string): string;
  /** The URL of the stylesheet bundled from `src/client/<name>.css`; `xv` is the platform's own. */
  stylesheet(name: string): string;
}
