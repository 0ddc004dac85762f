// Label vocabularies in English, German, French, Dutch, Spanish, Italian and Portuguese. Each is
// matched case-insensitively at a word start; accents are optional where OCR drops them. The
// value is looked for after the label on the same line, then below it (next line, same column).

const A = '[àáâa]';
const E = '[éèêe]';

export const labels = {
  documentNumber:
    /(?<![\p{L}])(invoice\s*(?:no\.?|number|#|nr\.?)|credit\s*note\s*(?:no\.?|number|#)|gutschrift\s*(?:nr\.?|nummer)|avoir\s*n[°o]|receipt\s*(?:no\.?|number|#)|folio\s*(?:no\.?|#)|rechnungs?-?\s*(?:nummer|nr\.?)|beleg-?\s*(?:nummer|nr\.?)|bon-?\s*nr\.?|quittung\s*nr\.?|facture\s*n[°o]\.?|n[°o]\s*(?:de\s*)?facture|ticket\s*n[°o]|re-nr\.?|factuurnummer|factuur\s*(?:nr\.?|nummer)|factura\s*n[°ºo]\.?|n[°º]\s*(?:de\s*)?factura|fattura\s*n[°o.]*|numero\s*fattura|fatura\s*n[°ºo]\.?)\s*:?/iu,
  orderNumber:
    /(?<![\p{L}])(order\s*(?:no\.?|number|#|id)|purchase\s*order|bestell-?\s*(?:nummer|nr\.?)|auftrags-?\s*(?:nummer|nr\.?)|commande\s*n[°o]|n[°o]\s*(?:de\s*)?commande|ordernummer|bestelnummer|pedido|ordine)\s*:?/iu,
  /** Issue date labels, strongest first. */
  date: new RegExp(
    `(?<![\\p{L}])(invoice\\s*date|receipt\\s*date|date\\s*of\\s*(?:issue|invoice|purchase)|issue\\s*date|purchase\\s*date|transaction\\s*date|rechnungsdatum|belegdatum|datum|date\\s*de\\s*(?:la\\s*)?facture|date\\s*d'?${E}mission|factuurdatum|factuur\\s*datum|fecha(?:\\s*de\\s*(?:emisi[oó]n|factura|expedici[oó]n))?|data(?:\\s*(?:fattura|documento|di\\s*emissione|de\\s*emiss[aã]o|emiss[aã]o|da\\s*fatura))?|date)(?![\\p{L}])\\s*[:.]?`,
    'iu',
  ),
  /** Dates that are not the document's: due, expiry, period ends, departure. */
  dueDate: new RegExp(
    `(?<![\\p{L}])(due\\s*date|payment\\s*due|due\\s*(?:by|on)|amount\\s*due\\s*on|f[äa]llig(?:keitsdatum)?(?:\\s*(?:am|bis))?|zahlbar\\s*bis|date\\s*d'?${E}ch${E}ance|${E}ch${E}ance|date\\s*limite|vervaldatum|vervaldag|uiterste\\s*betaaldatum|vencimiento|fecha\\s*de\\s*vencimiento|scadenza|vencimento|expir\\w*|valid\\s*(?:until|thru|through)|g[üu]ltig\\s*bis|pr${E}l${E}vement\\s*(?:le|à\\s*partir)|billing\\s*period|period)(?![\\p{L}])\\s*[:.]?`,
    'iu',
  ),
  taxId:
    /(?<![\p{L}])(vat\s*(?:reg\.?\s*)?(?:no\.?|number|id)|vat\s*reg(?:istration)?|tax\s*id|ein(?![\p{L}])|ust-?\s*[il]d(?:nr\.?)?|ust\.?-?\s*idnr\.?|uid\s*nr\.?|steuernummer|mwst-?\s*nr\.?|uid|st\.?-?\s*nr\.?|n[°o]\s*tva(?:\s*intracom(?:munautaire)?)?|tva\s*intracom(?:munautaire)?|siret|btw(?:\s*(?:nummer|nr\.?|-?id))?|cif|nif|nipc|partita\s*iva|p\.?\s*iva|gstin)\s*:?/iu,
  net: /(?<![\p{L}])(sub-?\s*total|net\s*(?:total|amount)|total\s*net|total\s*excl\.?(?:uding)?\s*(?:vat|tax)|total\s*ht|montant\s*(?:eur\s*)?ht|sous-?\s*total|zwischensumme|nettobetrag|summe\s*netto|netto(?:betrag)?|subtotaal|exclusief\s*btw|totaal\s*excl\.?|base\s*imponible|subtotale|imponibile|total\s*sem\s*iva)(?![\p{L}])/iu,
  taxTotal:
    /(?<![\p{L}])(total\s*(?:vat|tax|tva|iva|btw|mwst)|(?:vat|tax)\s*total|total\s*taxes|mwst\.?\s*gesamt|summe\s*mwst\.?|gesamt\s*mwst\.?|montant\s*tva|total\s*tva|btw\s*bedrag|totale\s*iva|imposta|valor\s*(?:do\s*)?iva|cuota\s*iva|sales\s*tax)(?![\p{L}])/iu,
  amountDue: new RegExp(
    `(?<![\\p{L}])(amount\\s*due|balance\\s*due|total\\s*due|balance(?!\\s*forward)|zu\\s*zahlen|restbetrag|offener\\s*betrag|net\\s*${A}\\s*payer|reste\\s*${A}\\s*payer|solde\\s*d[ûu]|nog\\s*te\\s*betalen|openstaand(?:\\s*bedrag)?|saldo|importe\\s*pendiente|da\\s*pagare)`,
    'iu',
  ),
  tip: /(?<![\p{L}])(tip|gratuity|trinkgeld|pourboire|fooi|propina|mancia|gorjeta)(?![\p{L}])/iu,
  tax: /(?<![\p{L}])(vat|mwst\.?|ust\.?|tva|sales\s*tax|tax|iva|b\.?\s?t\.?\s?w\.?|gst|steuer)(?![\p{L}])[^%\d]{0,24}?(\d{1,2}(?:[.,]\d{1,2})?)\s?%/iu,
  itemsHeader:
    /\b(description|item|qty|artikel|bezeichnung|menge|désignation|qté|quantité|leistung|omschrijving|aantal|descripci[oó]n|cantidad|descrizione|quantit[àa]|descri[çc][ãa]o|quantidade)\b/iu,
};

/**
 * Grand-total labels with their weight: 3 for labels that only ever name the amount paid or
 * owed, 2 for a strong total, 1 for a bare "total" (also printed on count and subtotal lines).
 */
export const totalLabels: [RegExp, number][] = [
  [
    new RegExp(
      `(?<![\\p{L}])(grand\\s*total|total\\s*ttc|montant\\s*ttc|net\\s*${A}\\s*payer|total\\s*${A}\\s*payer|montant\\s*${A}\\s*payer|somme\\s*${A}\\s*payer|montant\\s*total|total\\s*facture|gesamtbetrag|gesamtsumme|rechnungsbetrag|endbetrag|factuur\\s*totaal|totaal\\s*(?:te\\s*betalen|bedrag|incl\\.?(?:\\s*btw)?)|te\\s*betalen|(?:total|importe|valor)?\\s*a\\s*pagar|importe\\s*total|total\\s*factura|totale\\s*(?:fattura|documento|complessivo|da\\s*pagare|euro)|importo\\s*totale|valor\\s*total|total\\s*(?:amount|charged|paid|payable|to\\s*pay|incl\\.?(?:uding)?\\s*(?:vat|tax))|amount\\s*(?:paid|charged|payable)|invoice\\s*total|total\\s*for\\s*this\\s*invoice)(?![\\p{L}])`,
      'iu',
    ),
    3,
  ],
  [
    new RegExp(
      `(?<![\\p{L}])(summe|totaal|totale|gesamt|importe|ttc|pay${E}|betaald|pagado|pagato|pago|valor|montant|bedrag)(?![\\p{L}])`,
      'iu',
    ),
    2,
  ],
  [/(?<![\p{L}])(total|tota1|tota\s?l)(?![\p{L}])/iu, 1],
];

/** A line naming a total that is not the grand total: subtotals, net, tax, counts, savings. */
export const notGrandTotal =
  /(sub-?\s*total|subtotaal|sous-?\s*total|zwischensumme|subtotale|total\s*parcial|total\s*ht|montant\s*(?:eur\s*)?ht|(?<![\p{L}])ht(?![\p{L}])|excl|exkl|netto|(?<![\p{L}])net(?![\p{L}])(?!\s*[àa]\s*payer)|base\s*imponible|imponibile|grondslag|total\s*(?:vat|tax|tva|iva|btw|mwst|ust|gst)|(?:vat|tax|tva|iva|btw|mwst\.?|ust)\s*(?:total|gesamt|totaal|bedrag|amount)|totale\s*iva|total\s*taxes|summe\s*mwst|before\s*tip|vor\s*trinkgeld|hors\s*pourboire|total\s*(?:items?|qty|quantity|articles?|pieces|units|savings|saved|discount|points|number)|(?:items?|articles?|artikel|pos(?:ition)?en|st[üu]ck)\s*(?:total|gesamt)|anzahl|aantal\s*artikel|you\s*saved|ersparnis|points|punkte|payback|coupon)/iu;

/** Payment lines: what was handed over (the total, or more when change or cash back follows). */
export const paymentLine = new RegExp(
  `(?<![\\p{L}])(cash|bar(?:geld|zahlung)?|geg(?:eben)?\\.?|ec-?cash|kartenzahlung|karte|card|visa|mastercard|master\\s*card|maestro|amex|girocard|esp${E}ces|cb|carte(?:\\s*bancaire)?|efectivo|tarjeta|contanti|carta|pinpas|pin|contant|dinheiro|cart[aã]o|multibanco|tendered|received|paid\\s*(?:by|with|through)|payment\\s*received)(?![\\p{L}])`,
  'iu',
);

/** Change and cash back: money that went back to the payer, never part of the total. */
export const changeLine = new RegExp(
  `(?<![\\p{L}])(change|r[üu]ckgeld|wechselgeld|auszahlung|cash\\s*back|cashback|rendu|monnaie|${A}\\s*rendre|cambio|vuelto|resto|troco|wisselgeld|terug)(?![\\p{L}])`,
  'iu',
);

export const creditNoteWords =
  /\b(credit\s*note|gutschrift|rechnungskorrektur|avoir|note\s*de\s*crédit|creditnota|nota\s*de\s*cr[ée]dito|nota\s*di\s*credito)\b/iu;
export const invoiceWords =
  /(?<![\p{L}])(invoice|rechnung|facture|folio|factuur|factura|fattura|fatura)(?![\p{L}])/iu;

export const legalForms =
  /(?<![\p{L}])(gmbh|ag|kg|ohg|ug|e\.\s?k\.|gbr|ltd\.?|limited|llc|inc\.?|corp\.?|plc|llp|sas|sarl|s\.a\.r\.l\.|sa|s\.a\.|eurl|sasu|snc|b\.v\.|bv|n\.v\.|nv|s\.r\.l\.|srl|s\.l\.|sl|s\.p\.a\.|spa|lda|pvt\.?\s*ltd\.?|private\s*limited)(?![\p{L}])/iu;

export const cardBrands =
  /(?<![\p{L}])(visa|cb|mastercard|master\s*card|maestro|amex|american\s*express|girocard|carte\s*bancaire|discover|diners)(?![\p{L}])/iu;
export const cardLastFour =
  /(?:[*xX•#]{2,}[\s*xX•#-]*|ending\s*(?:in\s*)?|endet\s*auf\s*|finissant\s*par\s*|se\s*terminant\s*par\s*)(\d{4})\b/u;
export const paymentWords: [RegExp, string][] = [
  [
    /(?<![\p{L}])(cash|bargeld|barzahlung|bar|esp[èée]ces|efectivo|contanti|contant|dinheiro)(?![\p{L}])/iu,
    'cash',
  ],
  [
    /(bank\s*transfer|wire\s*transfer|[üu]berweisung|virement|overschrijving|transferencia|bonifico)/iu,
    'credit_transfer',
  ],
  [/(direct\s*debit|lastschrift|prélèvement|prelevement|incasso|domiciliaci[oó]n)/iu, 'direct_debit'],
  [
    /(?<![\p{L}])(card|karte|carte|ec-karte|kartenzahlung|contactless|kontaktlos|tarjeta|carta|cart[aã]o|pinpas)(?![\p{L}])/iu,
    'card',
  ],
];
