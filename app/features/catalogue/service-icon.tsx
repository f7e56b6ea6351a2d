import { Brain, Code2, Headphones, MessagesSquare, ShieldCheck, Star } from "lucide-react";
import type { Service } from "./services";

const icons = {
  "consultoria-puntual": MessagesSquare,
  "asistencia-digital": Headphones,
  "inteligencia-artificial": Brain,
  "desarrollo-web": Code2,
  ciberseguridad: ShieldCheck,
  "reputacion-digital": Star,
} as const;

export function ServiceIcon({
  service,
  className = "size-6",
}: {
  service: Service;
  className?: string;
}) {
  const Icon = icons[service.slug as keyof typeof icons] ?? MessagesSquare;
  return <Icon className={className} aria-hidden />;
}
