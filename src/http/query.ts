import { AppError } from '../contract/errors.ts';

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
}

function typesOf(schema: PropertySchema | undefined): string[] {
  if (!schema) return [];
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/**
 * Query strings carry only text: numbers and booleans are converted where the schema asks for
 * them (strictly: `1e2`, `01`, `yes` stay text and fail validation), unknown names are refused.
 */
export function coerceQuery(
  schema: { properties?: Record<string, PropertySchema> },
  query: Record<string, unknown>,
): Record<string, unknown> {
  const properties = schema.properties ?? {};
  // No prototype: a parameter name can never reach Object.prototype through the result either.
  const result: Record<string, unknown> = Object.create(null);
  for (const [name, raw] of Object.entries(query)) {
    // Own properties only: `__proto__`, `constructor`, `toString` are unknown names, not Object's.
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!property)
      throw new AppError('unknown_parameter', `${name} is not an accepted parameter.`, { field: name });
    if (Array.isArray(raw))
      throw new AppError('invalid_input', `${name} was given more than once.`, { field: name });
    const text = String(raw);
    const types = typesOf(property);
    if ((types.includes('integer') || types.includes('number')) && /^-?(0|[1-9]\d*)$/.test(text)) {
      result[name] = Number(text);
    } else if (types.includes('boolean') && (text === 'true' || text === 'false')) {
      result[name] = text === 'true';
    } else if (types.includes('null') && text === 'null' && !types.includes('string')) {
      result[name] = null;
    } else {
      result[name] = text;
    }
  }
  return result;
}
