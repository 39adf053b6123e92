/**
 * A deterministic, realistic set of contacts: the same seed and count always give the same
 * contacts, so tests can rely on them. Some contacts lack the `address_2` and `state` keys
 * altogether, some have an empty company name, statuses come in combinations.
 */
import type { ContactStatus, WireContact } from "./contactSchema";

/** The largest generated dataset the sandbox accepts. */
export const MAX_GENERATED_CONTACTS = 100_000;

/**
 * mulberry32: a small, fast PRNG with a 32-bit state; good enough for test data and identical on
 * every platform.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Country {
  code: string;
  dial: string;
  cities: ReadonlyArray<{ city: string; state: string }>;
  streets: readonly string[];
  postalCode: (random: () => number) => string;
  /** Whether contacts of this country usually carry a state. */
  hasStates: boolean;
}

function digits(random: () => number, count: number): string {
  let out = "";
  for (let i = 0; i < count; i += 1) out += Math.floor(random() * 10);
  return out;
}

function letters(random: () => number, count: number): string {
  let out = "";
  for (let i = 0; i < count; i += 1) out += String.fromCharCode(65 + Math.floor(random() * 26));
  return out;
}

const COUNTRIES: readonly Country[] = [
  {
    code: "NL",
    dial: "31",
    cities: [
      { city: "Amsterdam", state: "Noord-Holland" },
      { city: "Rotterdam", state: "Zuid-Holland" },
      { city: "Utrecht", state: "Utrecht" },
      { city: "Eindhoven", state: "Noord-Brabant" },
      { city: "Groningen", state: "Groningen" },
    ],
    streets: ["Keizersgracht", "Damrak", "Oudegracht", "Stationsplein", "Kerkstraat"],
    postalCode: (random) => `${1 + Math.floor(random() * 9)}${digits(random, 3)} ${letters(random, 2)}`,
    hasStates: false,
  },
  {
    code: "DE",
    dial: "49",
    cities: [
      { city: "Berlin", state: "Berlin" },
      { city: "Hamburg", state: "Hamburg" },
      { city: "Munich", state: "Bayern" },
      { city: "Cologne", state: "Nordrhein-Westfalen" },
    ],
    streets: ["Hauptstrasse", "Bahnhofstrasse", "Gartenweg", "Schillerstrasse"],
    postalCode: (random) => digits(random, 5),
    hasStates: false,
  },
  {
    code: "US",
    dial: "1",
    cities: [
      { city: "New York", state: "NY" },
      { city: "San Francisco", state: "CA" },
      { city: "Austin", state: "TX" },
      { city: "Seattle", state: "WA" },
      { city: "Boston", state: "MA" },
    ],
    streets: ["Main Street", "Broadway", "Market Street", "Elm Street", "Oak Avenue"],
    postalCode: (random) => digits(random, 5),
    hasStates: true,
  },
  {
    code: "GB",
    dial: "44",
    cities: [
      { city: "London", state: "Greater London" },
      { city: "Manchester", state: "Greater Manchester" },
      { city: "Bristol", state: "Bristol" },
      { city: "Edinburgh", state: "Scotland" },
    ],
    streets: ["High Street", "Station Road", "Church Lane", "Victoria Road"],
    postalCode: (random) =>
      `${letters(random, 2)}${1 + Math.floor(random() * 9)} ${digits(random, 1)}${letters(random, 2)}`,
    hasStates: true,
  },
  {
    code: "FR",
    dial: "33",
    cities: [
      { city: "Paris", state: "Ile-de-France" },
      { city: "Lyon", state: "Auvergne-Rhone-Alpes" },
      { city: "Marseille", state: "Provence-Alpes-Cote d'Azur" },
      { city: "Toulouse", state: "Occitanie" },
    ],
    streets: ["Rue de la Paix", "Avenue Victor Hugo", "Rue du Moulin", "Boulevard Voltaire"],
    postalCode: (random) => digits(random, 5),
    hasStates: false,
  },
  {
    code: "BE",
    dial: "32",
    cities: [
      { city: "Brussels", state: "Brussels" },
      { city: "Antwerp", state: "Antwerpen" },
      { city: "Ghent", state: "Oost-Vlaanderen" },
    ],
    streets: ["Grote Markt", "Meir", "Veldstraat"],
    postalCode: (random) => `${1 + Math.floor(random() * 9)}${digits(random, 3)}`,
    hasStates: false,
  },
];

const FIRST_NAMES = [
  "Anna",
  "Bram",
  "Chloe",
  "Daan",
  "Emma",
  "Finn",
  "Greta",
  "Hugo",
  "Iris",
  "Jan",
  "Klara",
  "Lucas",
  "Mila",
  "Noah",
  "Olivia",
  "Pieter",
  "Quinn",
  "Ruth",
  "Sam",
  "Tess",
] as const;
const LAST_NAMES = [
  "de Vries",
  "Jansen",
  "Muller",
  "Schmidt",
  "Smith",
  "Johnson",
  "Brown",
  "Taylor",
  "Martin",
  "Bernard",
  "Peeters",
  "Janssens",
  "Bakker",
  "Visser",
  "Wilson",
  "Dubois",
  "Fischer",
  "Meyer",
] as const;
const COMPANIES = [
  "Acme B.V.",
  "Globex GmbH",
  "Initech Inc.",
  "Umbrella Ltd",
  "Hooli SAS",
  "Stark Industries",
  "Wayne Enterprises",
  "Tulip Hosting",
  "Windmill Media",
  "Canal Digital",
  "Polder Systems",
] as const;
const MAIL_DOMAINS = [
  "example.com",
  "example.net",
  "example.org",
  "mail.example",
  "example.nl",
  "example.de",
] as const;
const ADDRESS_2 = ["Suite 100", "2nd floor", "Apt. 4B", "Unit 7", "c/o Reception"] as const;

/** Status combinations, each with its weight out of 100. */
const STATUS_COMBOS: ReadonlyArray<{ weight: number; status: ContactStatus[] }> = [
  { weight: 60, status: ["ok"] },
  { weight: 10, status: ["ok", "pending_update"] },
  { weight: 10, status: ["pending_validation"] },
  { weight: 8, status: ["pending_update"] },
  { weight: 7, status: ["ok", "pending_validation"] },
  { weight: 5, status: ["pending_update", "pending_validation"] },
];

const CREATED_FROM = Date.UTC(2015, 0, 1);
const CREATED_TO = Date.UTC(2025, 11, 31);
const UPDATED_TO = Date.UTC(2026, 11, 31, 23, 59, 59);

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function pickStatus(random: () => number): ContactStatus[] {
  let roll = random() * 100;
  for (const combo of STATUS_COMBOS) {
    roll -= combo.weight;
    if (roll < 0) return [...combo.status];
  }
  return ["ok"];
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * Formats an instant as `YYYY-MM-DDThh:mm:ssZ` (whole seconds, UTC). Computed by hand (days to
 * civil date, H. Hinnant's algorithm) because Date#toISOString dominated generating 100,000 contacts.
 */
export function formatDatetime(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000);
  const days = Math.floor(seconds / 86400);
  const secondOfDay = seconds - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hh = Math.floor(secondOfDay / 3600);
  const mm = Math.floor((secondOfDay % 3600) / 60);
  const ss = secondOfDay % 60;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}Z`;
}

/** The handle of the n-th generated contact (1-based), e.g. `C0000042`. */
export function generatedHandle(n: number): string {
  return `C${String(n).padStart(7, "0")}`;
}

/**
 * Generates `count` contacts from `seed`. Deterministic: the same arguments give the same list.
 *
 * @example
 * generateContacts(3, 1).map((c) => c.handle); // ["C0000001", "C0000002", "C0000003"]
 */
export function generateContacts(count: number, seed: number): WireContact[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_GENERATED_CONTACTS) {
    throw new RangeError(`contacts: must be an integer from 0 to ${MAX_GENERATED_CONTACTS}, got ${count}`);
  }
  const random = mulberry32(seed);
  const contacts: WireContact[] = [];
  for (let n = 1; n <= count; n += 1) {
    const country = pick(random, COUNTRIES);
    const place = pick(random, country.cities);
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    const created = CREATED_FROM + Math.floor(random() * (CREATED_TO - CREATED_FROM));
    const updated = created + Math.floor(random() * (UPDATED_TO - created));
    const contact: WireContact = {
      handle: generatedHandle(n),
      company_name: random() < 0.3 ? "" : pick(random, COMPANIES),
      name: `${first} ${last}`,
      address_1: `${pick(random, country.streets)} ${1 + Math.floor(random() * 250)}`,
    };
    const address2Roll = random();
    if (address2Roll < 0.3) contact.address_2 = pick(random, ADDRESS_2);
    else if (address2Roll < 0.6) contact.address_2 = "";
    contact.postal_code = country.postalCode(random);
    contact.city = place.city;
    const stateRoll = random();
    if (country.hasStates) contact.state = place.state;
    else if (stateRoll < 0.5) contact.state = "";
    contact.country = country.code;
    contact.phone = `+${country.dial}.${1 + Math.floor(random() * 9)}${digits(random, 8)}`;
    contact.email = `${first}.${last.replace(/ /g, "")}${n}@${pick(random, MAIL_DOMAINS)}`.toLowerCase();
    contact.status = pickStatus(random);
    contact.connections = Math.floor(random() * 51);
    contact.date_created = formatDatetime(created);
    contact.date_last_updated = formatDatetime(updated);
    contact.auto_delete = random() < 0.4;
    contact.reference = random() < 0.8 ? `REF-${String(Math.floor(random() * 100000)).padStart(5, "0")}` : "";
    contacts.push(contact);
  }
  return contacts;
}
