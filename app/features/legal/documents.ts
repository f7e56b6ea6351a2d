/**
 * Spanish legal texts of the site (terms, privacy, cookies and legal notice).
 * Company identity values always come from the `company` argument; never hard-code them here.
 */
import { COOKIE_POLICY_VERSION } from "~/features/consent/cookie-consent";
import type { CompanyDetails, LegalDocument } from "./legal-document";
import { legalTitles } from "./legal-titles";

/** Date of the last revision shared by all legal documents. */
const UPDATED_ON = "2026-11-25";

export function termsDocument(company: CompanyDetails): LegalDocument {
  return {
    slug: "terminos",
    title: legalTitles.terminos,
    description:
      "Condiciones de contratación de nuestros servicios digitales: proceso de compra, precios y pago, plazos, desistimiento, reembolsos y responsabilidad.",
    updatedOn: UPDATED_ON,
    intro: `Estos Términos y Condiciones regulan la contratación de los servicios que ${company.legalName} (en adelante, «${company.brandName}») ofrece a través del sitio web ${company.siteUrl}. Le rogamos que los lea con atención antes de realizar cualquier compra: al contratar un servicio, declara haberlos leído y aceptado.`,
    sections: [
      {
        heading: "1. Objeto y servicios",
        blocks: [
          {
            kind: "paragraph",
            text: `Estas condiciones se aplican a todos los servicios digitales que ${company.brandName} presta a sus clientes, ya sean particulares (consumidores) o empresas y profesionales. Los servicios se ofrecen a precio cerrado y se contratan mediante un pago único.`,
          },
          {
            kind: "list",
            items: [
              "Asistencia Informática: resolución de incidencias técnicas, configuración y mantenimiento de equipos y software.",
              "Consultoría en IA: análisis y asesoramiento sobre la adopción de herramientas de inteligencia artificial.",
              "Desarrollo Web: diseño y desarrollo de sitios y aplicaciones web.",
              "Ciberseguridad: revisión y mejora de la seguridad de sistemas, cuentas y servicios.",
              "Reputación Digital: análisis y mejora de la presencia de su marca o persona en internet.",
              "Consultoría Puntual: sesión de consultoría de una hora sobre el tema que usted elija.",
            ],
          },
          {
            kind: "paragraph",
            text: "El contenido, el alcance y las condiciones particulares de cada servicio son los descritos en su página correspondiente del sitio web en el momento de la contratación.",
          },
        ],
      },
      {
        heading: "2. Proceso de contratación, precios y pago",
        blocks: [
          {
            kind: "paragraph",
            text: "Para contratar un servicio debe ser mayor de edad, tener capacidad legal para contratar y crear una cuenta de cliente con su correo electrónico y una contraseña. Antes de completar la primera compra deberá verificar su dirección de correo electrónico mediante el enlace que le enviaremos.",
          },
          {
            kind: "list",
            items: [
              "Elija el servicio en su página y revise su descripción, su precio y su plazo de entrega.",
              "Inicie sesión en su cuenta o regístrese y verifique su correo electrónico.",
              "Realice el pago con tarjeta a través de la pasarela segura de Stripe.",
              "Una vez confirmado el pago, la compra quedará registrada en su área de cliente y nos pondremos en contacto con usted para iniciar el servicio.",
            ],
          },
          {
            kind: "paragraph",
            text: "Todos los precios se expresan en euros e incluyen el IVA (21 %). Cada servicio se abona en un único pago y no se aplican comisiones ni recargos adicionales. Antes de pagar, el formulario de compra muestra la base imponible, el IVA y el total.",
          },
          {
            kind: "paragraph",
            text: "Cada pago genera una factura con número correlativo, que puede descargar en PDF desde «Mi Cuenta» y que también le enviamos con el recibo. La factura es completa, con su nombre o razón social, NIF y domicilio, cuando el importe supera 400 € (IVA incluido) o cuando nos da esos datos al comprar o en su perfil; si no, es una factura simplificada. Un reembolso genera una factura rectificativa. Emitimos las facturas con un sistema VERI*FACTU: cada registro de facturación se remite a la Agencia Tributaria y cada factura lleva un código QR para comprobarla en su sede electrónica.",
          },
          {
            kind: "paragraph",
            text: `El pago se procesa a través de Stripe. ${company.brandName} no almacena en ningún momento los datos de su tarjeta, que se transmiten directamente a Stripe de forma cifrada.`,
          },
        ],
      },
      {
        heading: "3. Plazos de ejecución y entrega",
        blocks: [
          {
            kind: "paragraph",
            text: "Los plazos de ejecución y entrega son los indicados en la página de cada servicio. Dichos plazos empiezan a contar desde la confirmación del pago y la recepción de la información o los accesos necesarios para prestar el servicio.",
          },
          {
            kind: "paragraph",
            text: "Si por cualquier circunstancia no pudiéramos cumplir el plazo previsto, se lo comunicaremos lo antes posible y le propondremos una nueva fecha. Los retrasos imputables a la falta de colaboración del cliente no se computan dentro del plazo.",
          },
        ],
      },
      {
        heading: "4. Suscripciones y renovación automática",
        blocks: [
          {
            kind: "paragraph",
            text: "En la actualidad, todos nuestros servicios se contratan mediante un pago único y no generan cargos periódicos. Las reglas de este apartado se aplican a cualquier servicio que se contrate como suscripción o plan periódico.",
          },
          {
            kind: "paragraph",
            text: "Las suscripciones se renuevan automáticamente al final de cada periodo, salvo que se cancelen con al menos 7 días de antelación a la fecha de renovación.",
          },
          {
            kind: "paragraph",
            text: `Antes de contratar una suscripción se le informará de su precio, de su periodicidad y de la fecha de renovación. Puede cancelarla en cualquier momento escribiendo a ${company.contactEmail}; la cancelación surtirá efecto al final del periodo en curso, sin penalización alguna.`,
          },
        ],
      },
      {
        heading: "5. Derecho de desistimiento, reembolsos y garantía",
        anchor: "desistimiento",
        blocks: [
          {
            kind: "paragraph",
            text: "Si contrata como consumidor, dispone de un plazo de 14 días naturales desde la contratación para desistir del contrato sin necesidad de justificación, conforme al Real Decreto Legislativo 1/2007, de 16 de noviembre, por el que se aprueba el texto refundido de la Ley General para la Defensa de los Consumidores y Usuarios.",
          },
          {
            kind: "paragraph",
            text: "El derecho de desistimiento se pierde una vez que el servicio se ha ejecutado completamente, cuando la ejecución haya comenzado con su consentimiento previo y expreso y con su reconocimiento de que es consciente de que pierde dicho derecho. Si solicita que el servicio comience durante el plazo de desistimiento y desiste antes de su finalización, deberá abonar la parte proporcional del servicio ya prestado.",
          },
          {
            kind: "paragraph",
            text: "Antes de pagar, el formulario de compra le pide que marque si solicita que el servicio empiece de inmediato y acepta que, una vez prestado por completo, perderá el derecho de desistimiento; guardamos esa conformidad con la fecha junto a su compra.",
          },
          {
            kind: "paragraph",
            text: "Mientras no hayan pasado 14 días desde la compra y el servicio no se haya entregado por completo, en «Mi Cuenta» verá junto a la compra el botón «Desistir del contrato»: tras confirmarlo, registramos su solicitud y le enviamos un acuse de recibo por correo electrónico con la fecha y la hora.",
          },
          {
            kind: "paragraph",
            text: `No se realizarán reembolsos por servicios ya prestados, salvo en los casos exigidos por la ley. También puede desistir comunicándolo de forma inequívoca en ${company.contactEmail}; puede utilizar, si lo desea, el modelo de formulario de desistimiento del anexo B del citado Real Decreto Legislativo. Le devolveremos el importe correspondiente en un plazo máximo de 14 días naturales, por el mismo medio de pago utilizado.`,
          },
          {
            kind: "paragraph",
            text: "La promesa «Reembolso garantizado» que figura en la página de precios significa lo siguiente: si el servicio no puede iniciarse o entregarse en los términos acordados, le devolveremos íntegramente el importe abonado.",
          },
        ],
      },
      {
        heading: "6. Obligaciones del cliente",
        blocks: [
          {
            kind: "list",
            items: [
              "Facilitar datos veraces y mantenerlos actualizados en su perfil.",
              "Custodiar sus credenciales de acceso y no compartirlas con terceros; usted es responsable de la actividad realizada desde su cuenta.",
              "Proporcionar a tiempo la información, los materiales y los accesos necesarios para prestar el servicio, así como colaborar de buena fe durante su ejecución.",
              "Disponer de copias de seguridad actualizadas de sus datos antes de cualquier intervención técnica sobre sus equipos o sistemas.",
              "Garantizar que tiene los derechos necesarios sobre los contenidos y materiales que nos entrega, y utilizar los servicios de forma lícita.",
            ],
          },
        ],
      },
      {
        heading: "7. Propiedad intelectual",
        blocks: [
          {
            kind: "paragraph",
            text: `Los contenidos del sitio web, incluidos textos, diseños, logotipos y código fuente, son titularidad de ${company.legalName} o de sus licenciantes y están protegidos por la normativa de propiedad intelectual e industrial.`,
          },
          {
            kind: "paragraph",
            text: "Una vez abonado íntegramente el precio, el cliente podrá utilizar los entregables creados específicamente para él conforme a la finalidad del servicio contratado. Las herramientas, los conocimientos y los componentes preexistentes, así como el software de terceros o de código abierto que se incorpore, seguirán sujetos a sus respectivas licencias.",
          },
        ],
      },
      {
        heading: "8. Limitación de responsabilidad",
        blocks: [
          {
            kind: "paragraph",
            text: "Prestamos nuestros servicios con la diligencia profesional exigible, pero no respondemos de los daños derivados de información inexacta facilitada por el cliente, del uso indebido de los entregables ni de fallos de sistemas o servicios de terceros ajenos a nuestro control.",
          },
          {
            kind: "paragraph",
            text: "Nuestra responsabilidad total frente al cliente se limita al importe que este nos haya abonado en los últimos 12 meses.",
          },
          {
            kind: "paragraph",
            text: "Esta limitación no se aplica a los daños causados por dolo o culpa grave ni a los supuestos en los que la ley no permite limitar la responsabilidad, y no afecta a los derechos que la normativa de protección de los consumidores reconoce a quienes tengan esa condición.",
          },
        ],
      },
      {
        heading: "9. Modificaciones de las condiciones",
        blocks: [
          {
            kind: "paragraph",
            text: "Podemos modificar estos Términos y Condiciones para adaptarlos a cambios legales o en nuestros servicios. La versión vigente se publica siempre en esta página junto con la fecha de su última actualización.",
          },
          {
            kind: "paragraph",
            text: "Cada contratación se rige por las condiciones vigentes en el momento en que se realizó. Si una modificación afecta a una suscripción en curso, se lo comunicaremos por correo electrónico con antelación suficiente para que pueda cancelarla antes de la renovación.",
          },
        ],
      },
      {
        heading: "10. Legislación aplicable, jurisdicción y contacto",
        blocks: [
          {
            kind: "paragraph",
            text: "Estos Términos y Condiciones se rigen por la legislación española.",
          },
          {
            kind: "paragraph",
            text: "Cuando el cliente tenga la condición de consumidor, serán competentes los juzgados y tribunales de su domicilio, tal como exige la normativa de protección de los consumidores. En los demás casos, las partes se someten a los juzgados y tribunales del domicilio del prestador.",
          },
          {
            kind: "paragraph",
            text: `Para cualquier duda, consulta o reclamación sobre estas condiciones o sobre un servicio contratado, puede escribirnos a ${company.contactEmail} o a nuestro domicilio: ${company.address}.`,
          },
        ],
      },
    ],
  };
}

export function privacyDocument(company: CompanyDetails): LegalDocument {
  return {
    slug: "privacidad",
    title: legalTitles.privacidad,
    description:
      "Cómo tratamos sus datos personales: responsable, finalidades, bases jurídicas, destinatarios, plazos de conservación y cómo ejercer sus derechos.",
    updatedOn: UPDATED_ON,
    intro: `En ${company.brandName} respetamos su privacidad. Esta política explica qué datos personales tratamos cuando utiliza ${company.siteUrl}, con qué finalidad y qué derechos le asisten, de acuerdo con el Reglamento (UE) 2016/679 (RGPD) y la Ley Orgánica 3/2018, de Protección de Datos Personales y garantía de los derechos digitales (LOPDGDD).`,
    sections: [
      {
        heading: "1. Responsable del tratamiento",
        blocks: [
          {
            kind: "list",
            items: [
              `Responsable: ${company.legalName} (${company.brandName})`,
              `NIF/CIF: ${company.taxId}`,
              `Domicilio: ${company.address}`,
              `Correo electrónico de contacto: ${company.contactEmail}`,
            ],
          },
          {
            kind: "paragraph",
            text: `Para cualquier cuestión relacionada con el tratamiento de sus datos personales puede dirigirse a ${company.contactEmail}.`,
          },
        ],
      },
      {
        heading: "2. Datos que tratamos",
        blocks: [
          {
            kind: "list",
            items: [
              "Formulario de contacto: nombre, correo electrónico, servicio elegido y mensaje.",
              "Cuenta de cliente: correo electrónico, contraseña (que nunca se almacena en texto legible) y estado de verificación del correo.",
              "Perfil: nombre, teléfono, empresa y biografía, que usted decide si completa.",
              "Compras: servicio contratado, importe, fecha y estado del pago, junto con las referencias de la operación facilitadas por Stripe. No recibimos ni almacenamos los datos de su tarjeta.",
              "Tickets de soporte: el contenido de sus consultas y de nuestras respuestas.",
              "Registros técnicos: dirección IP, fecha y hora de acceso, navegador y páginas solicitadas, necesarios para el funcionamiento y la seguridad del sitio.",
              "Analítica: la página visitada, el sitio desde el que llegó y el tipo de dispositivo, con una huella cifrada de un solo día (sin su dirección IP ni los datos de su navegador); y, solo si acepta la analítica, un identificador aleatorio de su visita.",
            ],
          },
          {
            kind: "paragraph",
            text: "Los datos marcados como obligatorios en cada formulario son necesarios para atender su solicitud o prestar el servicio; si no los facilita, no podremos hacerlo.",
          },
        ],
      },
      {
        heading: "3. Finalidades y bases jurídicas",
        blocks: [
          {
            kind: "paragraph",
            text: "Tratamos sus datos únicamente para las finalidades siguientes, cada una amparada en una base jurídica del artículo 6 del RGPD:",
          },
          {
            kind: "table",
            header: ["Finalidad", "Base jurídica"],
            rows: [
              [
                "Gestionar su cuenta, su perfil y el área de cliente, y verificar su correo electrónico.",
                "Ejecución de un contrato (art. 6.1.b RGPD).",
              ],
              [
                "Prestar los servicios contratados, gestionar los pagos y atender sus tickets de soporte.",
                "Ejecución de un contrato (art. 6.1.b RGPD).",
              ],
              [
                "Responder a las consultas del formulario de contacto y enviarle el correo de confirmación.",
                "Consentimiento (art. 6.1.a RGPD) y, cuando la consulta se refiere a la contratación de un servicio, aplicación de medidas precontractuales (art. 6.1.b RGPD).",
              ],
              [
                "Contar las visitas de forma agregada: páginas vistas por día, sitio de procedencia, tipo de dispositivo y una estimación de los visitantes únicos de cada día, sin cookies y sin guardar nada en su dispositivo. Su dirección IP y los datos de su navegador solo se usan en el momento para calcular una huella cifrada con una clave que cambia cada día y no se guarda, y no se almacenan. En el registro técnico de estas solicitudes queda solo la red de su dirección (sus tres primeros números, o sus tres primeros grupos en IPv6), nunca la dirección completa.",
                "Interés legítimo (art. 6.1.f RGPD) en conocer el uso del sitio, con datos que no permiten identificarle.",
              ],
              [
                "Saber, con una cookie propia, si vuelve al sitio y qué recorrido sigue una visita hasta una consulta, un registro o una compra.",
                "Consentimiento (art. 6.1.a RGPD).",
              ],
              [
                "Garantizar la seguridad del sitio y prevenir usos fraudulentos mediante registros técnicos.",
                "Interés legítimo (art. 6.1.f RGPD).",
              ],
              [
                "Emitir facturas y cumplir las obligaciones contables y fiscales.",
                "Cumplimiento de una obligación legal (art. 6.1.c RGPD).",
              ],
            ],
          },
          {
            kind: "paragraph",
            text: "Puede retirar su consentimiento en cualquier momento, sin que ello afecte a la licitud del tratamiento previo. No elaboramos perfiles ni tomamos decisiones automatizadas con efectos jurídicos sobre usted, y no le enviaremos comunicaciones comerciales sin su consentimiento previo.",
          },
        ],
      },
      {
        heading: "4. Destinatarios y transferencias internacionales",
        blocks: [
          {
            kind: "paragraph",
            text: "No vendemos ni cedemos sus datos a terceros. Solo acceden a ellos los proveedores que necesitamos para prestar el servicio, que actúan por nuestra cuenta y bajo contrato:",
          },
          {
            kind: "list",
            items: [
              "Stripe, para el procesamiento seguro de los pagos con tarjeta.",
              "Nuestro proveedor de alojamiento, en cuyos servidores situados en la Unión Europea se aloja el sitio. La analítica es propia: sus datos se quedan en nuestra base de datos y no se comparten con ningún servicio de analítica de terceros.",
              "Nuestro proveedor de envío de correo electrónico, para los mensajes de verificación, confirmación y servicio.",
            ],
          },
          {
            kind: "paragraph",
            text: "Además, podremos comunicar datos a las administraciones públicas, jueces y tribunales cuando exista una obligación legal.",
          },
          {
            kind: "paragraph",
            text: "No realizamos transferencias internacionales de datos fuera del Espacio Económico Europeo, con la única excepción de las que pueda efectuar Stripe para procesar los pagos, que están amparadas por las cláusulas contractuales tipo aprobadas por la Comisión Europea.",
          },
        ],
      },
      {
        heading: "5. Plazos de conservación",
        blocks: [
          {
            kind: "list",
            items: [
              "Los datos de facturación se conservan durante 6 años, conforme al artículo 30 del Código de Comercio.",
              "Las consultas recibidas a través del formulario de contacto se conservan durante 12 meses.",
              "Los datos de su cuenta, perfil y tickets de soporte se conservan mientras la cuenta exista.",
              "Los registros técnicos se conservan durante el tiempo imprescindible para garantizar la seguridad del sitio.",
              "Los registros de analítica se conservan 30 días; después solo se guardan los totales de cada día, que no identifican a nadie.",
            ],
          },
          {
            kind: "paragraph",
            text: "Si elimina su cuenta, borramos sus datos personales y sus credenciales de acceso. Los registros de facturación se conservan seudonimizados durante el plazo legal y, una vez transcurrido, se eliminan.",
          },
        ],
      },
      {
        heading: "6. Sus derechos y cómo ejercerlos",
        blocks: [
          {
            kind: "paragraph",
            text: "Puede ejercer en cualquier momento sus derechos de acceso, rectificación, supresión, limitación del tratamiento, portabilidad y oposición, así como retirar los consentimientos prestados.",
          },
          {
            kind: "list",
            items: [
              "Desde Mi Cuenta > Configuración puede corregir los datos de su perfil, descargar una copia de sus datos en formato JSON y eliminar su cuenta.",
              `También puede ejercer sus derechos escribiendo a ${company.contactEmail}, indicando el derecho que desea ejercer. Si tenemos dudas razonables sobre su identidad, podremos pedirle información adicional para confirmarla.`,
            ],
          },
          {
            kind: "paragraph",
            text: "Responderemos a su solicitud en el plazo de un mes, prorrogable otros dos meses cuando la complejidad o el número de solicitudes lo requiera, en cuyo caso se lo comunicaremos.",
          },
          {
            kind: "paragraph",
            text: "Si considera que no hemos tratado sus datos correctamente, tiene derecho a presentar una reclamación ante la Agencia Española de Protección de Datos (www.aepd.es).",
          },
        ],
      },
      {
        heading: "7. Medidas de seguridad",
        blocks: [
          {
            kind: "paragraph",
            text: "Aplicamos medidas técnicas y organizativas adecuadas al riesgo para proteger sus datos frente a la pérdida, el acceso no autorizado o la alteración, entre ellas el cifrado de las comunicaciones mediante HTTPS, el almacenamiento protegido de las contraseñas, el control de accesos y el alojamiento en servidores situados en la Unión Europea.",
          },
          {
            kind: "paragraph",
            text: "Los datos de su tarjeta se introducen directamente en la pasarela de Stripe y nunca pasan por nuestros servidores ni se almacenan en ellos.",
          },
        ],
      },
      {
        heading: "8. Menores de edad",
        blocks: [
          {
            kind: "paragraph",
            text: "Este sitio y nuestros servicios no están dirigidos a menores de 14 años.",
          },
          {
            kind: "paragraph",
            text: "No recabamos de forma consciente datos de menores de 14 años. Si tenemos conocimiento de que los hemos recibido, los eliminaremos sin demora.",
          },
        ],
      },
      {
        heading: "9. Cambios en esta política",
        blocks: [
          {
            kind: "paragraph",
            text: "Podemos actualizar esta Política de Privacidad para adaptarla a cambios legales o en nuestros servicios. La versión vigente se publica siempre en esta página con la fecha de su última actualización y, si los cambios son relevantes, se lo comunicaremos por correo electrónico.",
          },
        ],
      },
    ],
  };
}

export function cookiesDocument(company: CompanyDetails): LegalDocument {
  return {
    slug: "cookies",
    title: legalTitles.cookies,
    description:
      "Qué cookies y almacenamiento local utiliza este sitio, para qué sirven, cuánto duran y cómo aceptar, rechazar o cambiar su consentimiento.",
    // The version every stored consent refers to: revising this policy asks everyone again.
    updatedOn: COOKIE_POLICY_VERSION,
    intro: `Esta Política de Cookies explica qué cookies y tecnologías de almacenamiento similares utiliza ${company.brandName} en ${company.siteUrl}, con qué finalidad y cómo puede gestionar su consentimiento, de acuerdo con el artículo 22.2 de la Ley 34/2002, de servicios de la sociedad de la información y de comercio electrónico (LSSI-CE).`,
    sections: [
      {
        heading: "1. ¿Qué son las cookies?",
        blocks: [
          {
            kind: "paragraph",
            text: "Las cookies son pequeños archivos que un sitio web guarda en su navegador cuando lo visita, para recordar información sobre su visita, como su sesión o sus preferencias.",
          },
          {
            kind: "paragraph",
            text: "El almacenamiento local (localStorage) es una tecnología similar que permite al sitio guardar datos en su navegador. A efectos de esta política, lo tratamos del mismo modo que las cookies.",
          },
        ],
      },
      {
        heading: "2. Cookies y almacenamiento que utilizamos",
        blocks: [
          {
            kind: "table",
            header: ["Cookie o almacenamiento", "Tipo", "Finalidad", "Duración"],
            rows: [
              [
                "Cookie de sesión del área de cliente",
                "Esencial (autenticación)",
                "Mantiene su sesión iniciada en el área de cliente y protege el acceso a su cuenta.",
                "Hasta 7 días",
              ],
              [
                "cookie-consent (almacenamiento local)",
                "Esencial",
                "Recuerda la elección que ha hecho en el banner de cookies.",
                "24 meses, o hasta que cambie esta política",
              ],
              [
                "cookie-preferences (almacenamiento local)",
                "Esencial",
                "Recuerda las categorías que ha aceptado o rechazado, la fecha de su elección y la versión de esta política que estaba vigente.",
                "24 meses, o hasta que cambie esta política",
              ],
              [
                "pending_purchase (almacenamiento local)",
                "Esencial",
                "Recuerda el servicio sobre el que ha elegido consultar, para indicarlo en el formulario de contacto.",
                "Se elimina en cuanto se lee",
              ],
              [
                "analitica_visita",
                "Analítica (solo con su consentimiento)",
                "Cookie propia. Guarda un identificador aleatorio de su visita y la hora de su última página, para unir las páginas de una misma visita y saber si ha vuelto. No contiene datos personales y no se comparte con nadie.",
                "13 meses desde su última visita",
              ],
            ],
          },
          {
            kind: "paragraph",
            text: "No cargamos recursos de terceros en nuestras páginas y las fuentes tipográficas se sirven desde nuestro propio servidor, por lo que no se instalan cookies publicitarias ni de redes sociales.",
          },
        ],
      },
      {
        heading: "3. Duración de las cookies",
        blocks: [
          {
            kind: "list",
            items: [
              "Las cookies esenciales pueden ser de sesión o persistentes, con una duración máxima de 1 año.",
              "Las cookies de autenticación duran hasta 7 días.",
              "La cookie de analítica (analitica_visita) dura 13 meses desde su última visita y se borra en cuanto retira su consentimiento.",
            ],
          },
        ],
      },
      {
        heading: "4. El banner de consentimiento",
        blocks: [
          {
            kind: "paragraph",
            text: "La primera vez que visita el sitio se muestra un banner que le permite decidir qué cookies acepta:",
          },
          {
            kind: "list",
            items: [
              "«Aceptar Todas»: acepta las cookies esenciales y las de analítica.",
              "«Solo Esenciales»: únicamente se utilizan las cookies y el almacenamiento imprescindibles para el funcionamiento del sitio.",
              "«Personalizar»: le permite elegir qué categorías acepta. Las cookies esenciales están siempre activas, porque sin ellas el sitio no puede funcionar.",
            ],
          },
          {
            kind: "paragraph",
            text: "No se instala ninguna cookie de analítica sin su consentimiento. Las cookies esenciales no requieren consentimiento, ya que son estrictamente necesarias para prestar el servicio que usted solicita.",
          },
          {
            kind: "paragraph",
            text: "Sin su consentimiento solo contamos las visitas de forma agregada, sin cookies y sin leer ni guardar nada en su dispositivo: las páginas vistas cada día, el sitio desde el que llegó, el tipo de dispositivo (móvil, tableta u ordenador) y una estimación de los visitantes únicos de cada día, calculada con una huella cifrada cuya clave cambia cada día y no se guarda, de modo que no podemos reconocerle de un día para otro. Su dirección IP y los datos de su navegador no se almacenan. Los registros se conservan 30 días y después solo quedan los totales diarios.",
          },
          {
            kind: "paragraph",
            text: "Si acepta la analítica, la cookie analitica_visita nos permite además unir las páginas de una misma visita y saber si ha vuelto, para medir cuántas visitas terminan en una consulta, un registro o una compra. Si su navegador envía la señal «Do Not Track» o «Global Privacy Control», solo le contamos en los totales agregados, aunque haya aceptado la analítica.",
          },
          {
            kind: "paragraph",
            text: "Guardamos su elección junto con la fecha en que la hizo y la versión de esta política vigente en ese momento. Su elección es válida durante 24 meses: pasado ese plazo, o si modificamos esta política, el banner volverá a aparecer para que elija de nuevo.",
          },
        ],
      },
      {
        heading: "5. Cómo cambiar su elección",
        blocks: [
          {
            kind: "paragraph",
            text: "Puede cambiar su elección o retirar su consentimiento en cualquier momento, tan fácilmente como lo dio: pulse «Configurar cookies» en el pie de cualquier página para abrir de nuevo sus preferencias, active o desactive la analítica y pulse «Guardar Preferencias».",
          },
          {
            kind: "paragraph",
            text: "Si retira su consentimiento, borramos la cookie de analítica en ese mismo momento y dejamos de relacionar sus páginas entre sí. También puede borrar los datos de este sitio en su navegador (cookies y almacenamiento local): en su próxima visita el banner volverá a aparecer, aunque borrar los datos del sitio también cerrará su sesión en el área de cliente.",
          },
        ],
      },
      {
        heading: "6. Cómo bloquear o eliminar las cookies en su navegador",
        blocks: [
          {
            kind: "paragraph",
            text: "También puede bloquear o eliminar las cookies desde la configuración de su navegador. Las opciones se encuentran, por lo general, en los siguientes apartados:",
          },
          {
            kind: "list",
            items: [
              "Google Chrome: Configuración > Privacidad y seguridad.",
              "Mozilla Firefox: Ajustes > Privacidad & Seguridad.",
              "Safari: Ajustes > Privacidad.",
              "Microsoft Edge: Configuración > Cookies y permisos del sitio.",
            ],
          },
          {
            kind: "paragraph",
            text: "Si bloquea las cookies esenciales, es posible que no pueda iniciar sesión ni utilizar algunas funciones del sitio.",
          },
        ],
      },
      {
        heading: "7. Más información y cambios en esta política",
        blocks: [
          {
            kind: "paragraph",
            text: "Para saber cómo tratamos sus datos personales y cómo ejercer sus derechos, consulte nuestra Política de Privacidad (/privacidad).",
          },
          {
            kind: "paragraph",
            text: `Podemos actualizar esta política si cambian las cookies que utilizamos; la versión vigente se publica siempre en esta página con la fecha de su última actualización. Para cualquier duda, escríbanos a ${company.contactEmail}.`,
          },
        ],
      },
    ],
  };
}

export function legalNoticeDocument(company: CompanyDetails): LegalDocument {
  return {
    slug: "aviso-legal",
    title: legalTitles["aviso-legal"],
    description:
      "Datos identificativos del titular del sitio web según la LSSI-CE, condiciones de uso, propiedad intelectual, responsabilidad y legislación aplicable.",
    updatedOn: UPDATED_ON,
    intro: `En cumplimiento del artículo 10 de la Ley 34/2002, de 11 de julio, de servicios de la sociedad de la información y de comercio electrónico (LSSI-CE), se informa a los usuarios de los datos identificativos del titular del sitio web ${company.siteUrl} y de las condiciones que regulan su uso.`,
    sections: [
      {
        heading: "1. Datos identificativos del titular",
        blocks: [
          {
            kind: "list",
            items: [
              `Titular: ${company.legalName}`,
              `Nombre comercial: ${company.brandName}`,
              `NIF/CIF: ${company.taxId}`,
              `Domicilio: ${company.address}`,
              `Datos registrales: ${company.registry}`,
              `Correo electrónico de contacto: ${company.contactEmail}`,
              `Sitio web: ${company.siteUrl}`,
            ],
          },
        ],
      },
      {
        heading: "2. Objeto del sitio web",
        blocks: [
          {
            kind: "paragraph",
            text: `Este sitio web tiene por objeto informar sobre los servicios digitales de ${company.brandName} (Asistencia Informática, Consultoría en IA, Desarrollo Web, Ciberseguridad, Reputación Digital y Consultoría Puntual) y permitir su contratación en línea, así como ofrecer a los clientes un área privada desde la que gestionar su cuenta, sus compras y sus tickets de soporte.`,
          },
          {
            kind: "paragraph",
            text: "La contratación de los servicios se rige por nuestros Términos y Condiciones (/terminos).",
          },
        ],
      },
      {
        heading: "3. Condiciones de uso",
        blocks: [
          {
            kind: "paragraph",
            text: "El acceso a este sitio web es gratuito y atribuye la condición de usuario, que implica la aceptación de este Aviso Legal. El usuario se compromete a hacer un uso adecuado y lícito del sitio y, en particular, a no:",
          },
          {
            kind: "list",
            items: [
              "Utilizarlo con fines ilícitos o contrarios a la buena fe, al orden público o a los derechos de terceros.",
              "Introducir virus o cualquier otro código dañino, ni intentar acceder sin autorización a áreas restringidas, cuentas ajenas o sistemas del titular.",
              "Facilitar datos falsos o suplantar la identidad de otras personas.",
              "Realizar acciones que puedan sobrecargar, dañar o inutilizar el sitio o impedir su uso normal por otros usuarios.",
            ],
          },
        ],
      },
      {
        heading: "4. Propiedad intelectual e industrial",
        blocks: [
          {
            kind: "paragraph",
            text: `Todos los contenidos del sitio web, incluidos textos, imágenes, diseño gráfico, logotipos, marcas y código fuente, son titularidad de ${company.legalName} o de terceros que han autorizado su uso, y están protegidos por la normativa de propiedad intelectual e industrial.`,
          },
          {
            kind: "paragraph",
            text: "Queda prohibida su reproducción, distribución, comunicación pública o transformación, total o parcial, sin la autorización expresa y por escrito del titular, salvo para el uso personal y privado del sitio.",
          },
        ],
      },
      {
        heading: "5. Exclusión de responsabilidad",
        blocks: [
          {
            kind: "paragraph",
            text: "El titular procura mantener el sitio web disponible y libre de errores, pero no garantiza su disponibilidad continua e ininterrumpida. Podrá suspender el acceso temporalmente por tareas de mantenimiento, actualización o seguridad, y no será responsable de los daños derivados de interrupciones o fallos técnicos ajenos a su control.",
          },
          {
            kind: "paragraph",
            text: "Los enlaces a sitios web de terceros que pudieran incluirse se ofrecen únicamente a título informativo. El titular no controla dichos sitios ni es responsable de sus contenidos; si tiene conocimiento efectivo de que un enlace remite a contenidos ilícitos, lo retirará con la mayor diligencia posible.",
          },
        ],
      },
      {
        heading: "6. Protección de datos y cookies",
        blocks: [
          {
            kind: "paragraph",
            text: "El tratamiento de los datos personales de los usuarios se describe en nuestra Política de Privacidad (/privacidad).",
          },
          {
            kind: "paragraph",
            text: "El uso de cookies y de tecnologías de almacenamiento similares se describe en nuestra Política de Cookies (/cookies).",
          },
        ],
      },
      {
        heading: "7. Legislación aplicable y jurisdicción",
        blocks: [
          {
            kind: "paragraph",
            text: "Este Aviso Legal se rige por la legislación española.",
          },
          {
            kind: "paragraph",
            text: "Para la resolución de cualquier controversia, serán competentes los juzgados y tribunales españoles. Cuando el usuario tenga la condición de consumidor, lo serán los de su domicilio, conforme a la normativa de protección de los consumidores; en los demás casos, los del domicilio del titular.",
          },
        ],
      },
    ],
  };
}
