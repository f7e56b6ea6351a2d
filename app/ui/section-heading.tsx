export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  level = "h2",
}: {
  level?: "h1" | "h2";
  id?: string;
  eyebrow: string;
  title: string;
  children?: React.ReactNode;
}) {
  const Heading = level;
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p>
      <Heading id={id} className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </Heading>
      {children ? <p className="mt-4 text-lg text-slate-600">{children}</p> : null}
    </div>
  );
}
