/** An address that may break after its '@' when a narrow column needs it, and nowhere else. */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at < 0) return <>{email}</>;
  return (
    <span>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </span>
  );
}
