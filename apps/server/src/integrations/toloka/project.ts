/** Builders of the Emolens shapes sent to Toloka: the external-link project and the audience's pool filter. */
import type { TolokaFilter, TolokaFilterCondition, TolokaProjectInput } from './schemas.ts';

/** Field names of the external-link project. */
export const EXTERNAL_LINK_FIELDS = { link: 'quota_url', code: 'completion_code' } as const;

/**
 * The project body for an external-link task: the worker opens our quota link (input `quota_url`) in a new
 * tab, takes the study, and types back the completion code shown at its end (output `completion_code`).
 */
export function externalLinkProject(options: {
  publicName: string;
  publicDescription: string;
  publicInstructions: string;
  linkLabel?: string;
  codeLabel?: string;
  codeMaxLength?: number;
}): TolokaProjectInput {
  const { link, code } = EXTERNAL_LINK_FIELDS;
  const config = {
    view: {
      type: 'view.list',
      items: [
        {
          type: 'view.link',
          url: { type: 'data.input', path: link },
          content: options.linkLabel ?? 'Open the study in a new tab',
        },
        {
          type: 'field.text',
          label: options.codeLabel ?? 'Completion code shown at the end of the study',
          data: { type: 'data.output', path: code },
          validation: { type: 'condition.required' },
        },
      ],
    },
    plugins: [{ type: 'plugin.toloka', layout: { kind: 'scroll', taskWidth: 600 } }],
  };
  return {
    public_name: options.publicName,
    public_description: options.publicDescription,
    public_instructions: options.publicInstructions,
    task_spec: {
      input_spec: { [link]: { type: 'url', required: true, hidden: false } },
      output_spec: {
        [code]: { type: 'string', required: true, min_length: 1, max_length: options.codeMaxLength ?? 64 },
      },
      view_spec: {
        type: 'tb',
        config: JSON.stringify(config),
        lock: {
          core: '1.0.0',
          'view.list': '1.0.0',
          'view.link': '1.0.0',
          'field.text': '1.0.0',
          'condition.required': '1.0.0',
          'plugin.toloka': '1.0.0',
        },
        settings: { showSkip: true, showTimer: true, showTitle: true, showSubmit: true, showFinish: true },
      },
    },
    assignments_issuing_type: 'AUTOMATED',
  };
}

/** Unix seconds of the same calendar moment `years` years before `now`. */
export function yearsBefore(now: Date, years: number): number {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return Math.floor(d.getTime() / 1000);
}

/**
 * A pool filter in Toloka's `{ and: [ { or: [...] }, ... ] }` form from the audience we target.
 * - gender: profile `gender` EQ MALE/FEMALE;
 * - age: profile `date_of_birth` (Unix seconds): at least `ageMin` ⇒ born on or before now − ageMin years (LTE);
 *   at most `ageMax` ⇒ born after now − (ageMax + 1) years (GT);
 * - countries: profile `country` EQ (ISO 3166-1 alpha-2), OR-ed;
 * - regionIds: computed `region_by_ip` IN (Yandex region ids), OR-ed.
 * Returns undefined when nothing is restricted.
 */
export function buildPoolFilter(
  options: {
    gender?: 'MALE' | 'FEMALE';
    ageMin?: number;
    ageMax?: number;
    countries?: string[];
    regionIds?: number[];
  },
  now: Date = new Date(),
): TolokaFilter | undefined {
  const groups: TolokaFilter[] = [];
  if (options.gender) {
    groups.push({ or: [{ category: 'profile', key: 'gender', operator: 'EQ', value: options.gender }] });
  }
  if (options.ageMin !== undefined) {
    const value = yearsBefore(now, options.ageMin);
    groups.push({ or: [{ category: 'profile', key: 'date_of_birth', operator: 'LTE', value }] });
  }
  if (options.ageMax !== undefined) {
    const value = yearsBefore(now, options.ageMax + 1);
    groups.push({ or: [{ category: 'profile', key: 'date_of_birth', operator: 'GT', value }] });
  }
  if (options.countries && options.countries.length > 0) {
    groups.push({
      or: options.countries.map(
        (country): TolokaFilterCondition => ({
          category: 'profile',
          key: 'country',
          operator: 'EQ',
          value: country.toUpperCase(),
        }),
      ),
    });
  }
  if (options.regionIds && options.regionIds.length > 0) {
    groups.push({
      or: options.regionIds.map(
        (id): TolokaFilterCondition => ({ category: 'computed', key: 'region_by_ip', operator: 'IN', value: id }),
      ),
    });
  }
  return groups.length > 0 ? { and: groups } : undefined;
}
