import { type Kysely, sql } from 'kysely';

/**
 * The categories directory a new installation starts with (issue 28, item 14). A customer chooses a research's or a
 * self-service test's categories from the directory and cannot add to it, and the self-service test needs a subtype:
 * an empty directory blocks it. The entries are written only into an empty directory (an installation whose
 * categorizer admins already keep one is left alone), with no author; admins rename or delete them like their own.
 *
 * Industries, sectors and product categories describe what is advertised; a subtype is what kind of content it is,
 * per content type (the benchmark compares a research with others of its subtype and content type). Brands, sub
 * brands and companies are each customer's own and are not seeded. The names are in English, the directory holding
 * one name per entry.
 */
const INDUSTRIES = [
  'FMCG',
  'Automotive',
  'Financial services',
  'Telecommunications',
  'Retail',
  'E-commerce',
  'Consumer electronics',
  'Pharmaceuticals and healthcare',
  'Media and entertainment',
  'Travel and hospitality',
  'Food service',
  'Real estate and construction',
  'Energy and utilities',
  'Technology and software',
  'Education',
  'Public sector and non-profit',
];

const SECTORS = [
  'Food',
  'Beverages',
  'Alcoholic beverages',
  'Personal care',
  'Beauty and cosmetics',
  'Home care',
  'Baby care',
  'Pet care',
  'Passenger cars',
  'Commercial vehicles',
  'Tyres and auto parts',
  'Banking',
  'Insurance',
  'Investments',
  'Payments and fintech',
  'Mobile operators',
  'Internet and pay TV providers',
  'Grocery retail',
  'Fashion retail',
  'DIY and home improvement',
  'Electronics retail',
  'Marketplaces',
  'Smartphones and gadgets',
  'Home appliances',
  'Over-the-counter medicines',
  'Healthcare services',
  'Streaming and TV',
  'Video games',
  'Airlines',
  'Hotels and travel booking',
  'Quick-service restaurants',
  'Food delivery',
  'Residential real estate',
];

const CATEGORIES = [
  'Dairy products',
  'Confectionery',
  'Salty snacks',
  'Breakfast cereals',
  'Ready meals',
  'Coffee',
  'Tea',
  'Carbonated soft drinks',
  'Juices',
  'Bottled water',
  'Energy drinks',
  'Beer',
  'Wine',
  'Spirits',
  'Hair care',
  'Skin care',
  'Oral care',
  'Deodorants',
  'Shaving',
  'Make-up',
  'Laundry detergents',
  'Dishwashing',
  'Household cleaners',
  'Diapers',
  'Pet food',
  'Cars',
  'Credit cards',
  'Consumer loans',
  'Mortgages',
  'Deposits and savings',
  'Car insurance',
  'Health insurance',
  'Mobile plans',
  'Home internet',
  'Smartphones',
  'Laptops and tablets',
  'Large home appliances',
  'Cold and flu remedies',
  'Pain relief',
  'Vitamins and supplements',
  'Fast food',
  'Pizza',
  'Ride hailing',
  'Streaming subscriptions',
  'Mobile games',
  'Air travel',
  'Clothing',
  'Footwear',
  'Sporting goods',
];

/** Subtypes per content type (a subtype name is unique across them). */
const SUBTYPES: Record<string, string[]> = {
  video: [
    'TV commercial',
    'Online pre-roll ad',
    'Social media video ad',
    'Vertical short video',
    'Bumper ad (6 s)',
    'Brand film',
    'Product demo video',
    'Explainer video',
    'Movie trailer',
    'Music video',
  ],
  pictures: [
    'Key visual',
    'Print ad',
    'Outdoor billboard',
    'Display banner',
    'Packaging design',
    'Social media post',
    'Logo',
  ],
  shelf: ['Supermarket shelf', 'Checkout display', 'Promotional display', 'Pharmacy shelf', 'Online store shelf'],
  site: [
    'Online store',
    'Landing page',
    'Corporate website',
    'Internet banking',
    'Mobile app prototype',
    'Booking service',
  ],
  contentless: ['In-depth interview', 'Concept test without stimulus', 'Product usage interview'],
};

/** Every seeded entry: kind, name and (subtypes only) content type. */
export function seededEntries(): { kind: string; name: string; content_type: string | null }[] {
  return [
    ...INDUSTRIES.map((name) => ({ kind: 'industry', name, content_type: null })),
    ...SECTORS.map((name) => ({ kind: 'sector', name, content_type: null })),
    ...CATEGORIES.map((name) => ({ kind: 'category', name, content_type: null })),
    ...Object.entries(SUBTYPES).flatMap(([content_type, names]) =>
      names.map((name) => ({ kind: 'subtype', name, content_type })),
    ),
  ];
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  const entries = seededEntries();
  // One statement: the entries go in only when the directory holds nothing at that moment.
  await sql`insert into category_entries (kind, name, content_type)
    select e.kind, e.name, e.content_type
      from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as e(kind text, name text, content_type text)
     where not exists (select 1 from category_entries)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // Only the seeded entries nobody wrote themselves (they have no author).
  const entries = seededEntries();
  await sql`delete from category_entries c
     using jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as e(kind text, name text)
     where c.created_by is null and c.kind = e.kind and c.name = e.name`.execute(db);
}
