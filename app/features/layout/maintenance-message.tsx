/**
 * The page a visitor gets (503, Retry-After) while the database is away: the site is in
 * maintenance for a moment, nothing of theirs is lost, and a reload later brings it back.
 */
export function MaintenanceMessage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600">503</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Estamos en mantenimiento</h1>
      <p className="mt-4 text-slate-600">
        Tu cuenta y tus datos están a salvo. Vuelve a cargar la página en unos minutos.
      </p>
    </section>
  );
}
