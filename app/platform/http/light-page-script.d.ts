/** The address of the light pages' script, from build-tools/light-page-script.ts. */
declare module "virtual:light-page-script" {
  const url: string;
  export default url;
}
