declare module "altcha/i18n/es-es";
