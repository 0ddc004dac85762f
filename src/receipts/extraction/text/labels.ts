// Label vocabularies, English, German and French. Each is matched case-insensitively at a word
// start; the value is looked for after the label on the same line, then on the next line.

export const labels = {
  documentNumber:
    /(?<![\p{L}])(invoice\s*(?:no\.?|number|#|nr\.?)|credit\s*note\s*(?:no\.?|number|#)|gutschrift\s*(?:nr\.?|nummer)|avoir\s*n[°o]|receipt\s*(?:no\.?|number|#)|folio\s*(?:no\.?|#)|rechnungs?-?\s*(?:nummer|nr\.?)|beleg-?\s*(?:nummer|nr\.?)|bon-?\s*nr\.?|quittung\s*nr\.?|facture\s*n[°o]\.?|n[°o]\s*(?:de\s*)?facture|ticket\s*n[°o]|re-nr\.?)\s*:?/iu,
  orderNumber:
    /(?<![\p{L}])(order\s*(?:no\.?|number|#|id)|purchase\s*order|bestell-?\s*(?:nummer|nr\.?)|auftrags-?\s*(?:nummer|nr\.?)|commande\s*n[°o]|n[°o]\s*(?:de\s*)?commande)\s*:?/iu,
  date: /(?<![\p{L}])(invoice\s*date|receipt\s*date|date\s*of\s*issue|issue\s*date|rechnungsdatum|belegdatum|datum|date\s*de\s*facture|date\s*d'émission|date)\s*:?/iu,
  dueDate:
    /(?<![\p{L}])(due\s*date|payment\s*due|due\s*by|f[äa]llig\s*(?:am|bis)?|f[äa]lligkeitsdatum|zahlbar\s*bis|date\s*d'échéance|échéance)\s*:?/iu,
  taxId:
    /(?<![\p{L}])(vat\s*(?:reg\.?\s*)?(?:no\.?|number|id)|vat\s*reg(?:istration)?|tax\s*id|ein(?![\p{L}])|ust-?\s*[il]d(?:nr\.?)?|ust\.?-?\s*idnr\.?|steuernummer|mwst-?\s*nr\.?|uid|st\.?-?\s*nr\.?|n[°o]\s*tva(?:\s*intracom(?:munautaire)?)?|tva\s*intracom(?:munautaire)?|siret)\s*:?/iu,
  net: /(?<![\p{L}])(sub-?\s*total|net\s*(?:total|amount)|total\s*net|total\s*excl\.?(?:uding)?\s*(?:vat|tax)|total\s*ht|montant\s*ht|sous-total|zwischensumme|nettobetrag|summe\s*netto|netto(?:betrag)?)\b/iu,
  taxTotal:
    /(?<![\p{L}])(total\s*(?:vat|tax|tva)|(?:vat|tax)\s*total|total\s*taxes|mwst\.?\s*gesamt|summe\s*mwst\.?|gesamt\s*mwst\.?|montant\s*tva|total\s*tva)\b/iu,
  total:
    /(?<![\p{L}])(grand\s*total|total\s*ttc|montant\s*ttc|total\s*charged|total\s*paid|total|gesamtbetrag|gesamtsumme|gesamt|endbetrag|summe|montant\s*total|à\s*payer)/iu,
  amountDue:
    /(?<![\p{L}])(amount\s*due|balance\s*due|total\s*due|zu\s*zahlen|restbetrag|offener\s*betrag|net\s*[àa]\s*payer|reste\s*[àa]\s*payer|solde\s*dû)/iu,
  tip: /(?<![\p{L}])(tip|gratuity|trinkgeld|pourboire)\b/iu,
  tax: /(?<![\p{L}])(vat|mwst\.?|ust\.?|tva|sales\s*tax|tax|iva)(?![\p{L}])[^%\d]{0,24}?(\d{1,2}(?:[.,]\d{1,2})?)\s?%/iu,
  itemsHeader: /\b(description|item|qty|artikel|bezeichnung|menge|désignation|qté|quantité|leistung)\b/iu,
};

/** A "total" line that is not the grand total: subtotals, net totals, tax totals. */
export const notGrandTotal =
  /(sub-?\s*total|sous-total|zwischensumme|total\s*ht|montant\s*ht|excl|netto|total\s*net|net\s*total|total\s*(?:vat|tax|tva)|(?:vat|tax|tva|mwst\.?)\s*(?:total|gesamt)|summe\s*mwst|total\s*taxes|before\s*tip|vor\s*trinkgeld|hors\s*pourboire)/iu;

export const creditNoteWords = /\b(credit\s*note|gutschrift|rechnungskorrektur|avoir|note\s*de\s*crédit)\b/iu;
export const invoiceWords = /(?<![\p{L}])(invoice|rechnung|facture|folio)(?![\p{L}])/iu;

export const legalForms =
  /(?<![\p{L}])(gmbh|ag|kg|ohg|ug|e\.\s?k\.|gbr|ltd\.?|limited|llc|inc\.?|corp\.?|plc|llp|sas|sarl|s\.a\.r\.l\.|sa|s\.a\.|eurl|sasu|snc|b\.v\.|bv|n\.v\.|s\.r\.l\.)(?![\p{L}])/iu;

export const cardBrands =
  /(?<![\p{L}])(visa|cb|mastercard|master\s*card|maestro|amex|american\s*express|girocard|carte\s*bancaire|discover|diners)(?![\p{L}])/iu;
export const cardLastFour =
  /(?:[*xX•]{2,}[\s*xX•-]*|ending\s*(?:in\s*)?|endet\s*auf\s*|finissant\s*par\s*|se\s*terminant\s*par\s*)(\d{4})\b/u;
export const paymentWords: [RegExp, string][] = [
  [/(?<![\p{L}])(cash|bargeld|barzahlung|esp[èée]ces)(?![\p{L}])/iu, 'cash'],
  [/(bank\s*transfer|wire\s*transfer|[üu]berweisung|virement)/iu, 'credit_transfer'],
  [/(direct\s*debit|lastschrift|prélèvement)/iu, 'direct_debit'],
  [/(?<![\p{L}])(card|karte|carte|ec-karte|kartenzahlung|contactless|kontaktlos)(?![\p{L}])/iu, 'card'],
];

export const currencySymbols: [RegExp, string][] = [
  [/€/u, 'EUR'],
  [/£/u, 'GBP'],
  [/(?<![A-Z])(?:US)?\$/u, 'USD'],
];
export const currencyCodes = /\b(EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|HUF|CAD|AUD|JPY)\b/u;
