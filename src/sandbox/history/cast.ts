/**
 * The cast of the sandbox's shipment history: shippers and consignees on realistic LTL lanes,
 * and what they ship. Company names and street addresses are invented; cities, ZIP/postal
 * codes and area codes are real, and phones use the fictional 555-01xx block. The first lane
 * is the sample lane README.md names (Burns TN 37029 -> Tampa FL 33635).
 */
import type { CountryIso3, Party } from '../carrier';

export type { Party };

export interface Company extends Party {
  /** Key into COMMODITIES: what this company ships. */
  readonly goods: string;
}

export interface Commodity {
  readonly Description: string;
  readonly PackageType: string;
  readonly NMFCItemNumber: string;
  /** NMFC sub number, which the live client sends as NMFCClass (docs/carrier-facts.md). */
  readonly NMFCSub: string;
  readonly Class: string;
  readonly weightPerPiece: readonly [number, number];
  readonly piecesPerUnit: number;
  readonly hazmat?: { readonly number: string; readonly hazardClass: string; readonly packingGroup?: string };
}

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
export const COMMODITIES: Readonly<Record<string, Commodity>> = {
  plastics: { Description: 'Plastic containers, nested', PackageType: 'PLT', NMFCItemNumber: '156600', NMFCSub: '03', Class: '85.0', weightPerPiece: [380, 720], piecesPerUnit: 1 },
  restaurant: { Description: 'Commercial kitchen equipment, crated', PackageType: 'CRT', NMFCItemNumber: '114140', NMFCSub: '05', Class: '92.5', weightPerPiece: [180, 460], piecesPerUnit: 1 },
  feed: { Description: 'Animal feed, in bags', PackageType: 'BAG', NMFCItemNumber: '007960', NMFCSub: '', Class: '50.0', weightPerPiece: [50, 50], piecesPerUnit: 40 },
  hardware: { Description: 'Hardware, builders, boxed', PackageType: 'CTN', NMFCItemNumber: '109230', NMFCSub: '', Class: '65.0', weightPerPiece: [35, 60], piecesPerUnit: 24 },
  poolchem: { Description: 'UN2880, Calcium hypochlorite, hydrated, 5.1, PG II (pool chlorine)', PackageType: 'DRM', NMFCItemNumber: '045400', NMFCSub: '', Class: '55.0', weightPerPiece: [110, 110], piecesPerUnit: 4, hazmat: { number: 'UN2880', hazardClass: '5.1', packingGroup: 'II' } },
  tooling: { Description: 'Machine parts, steel, NOI', PackageType: 'SKD', NMFCItemNumber: '114200', NMFCSub: '', Class: '70.0', weightPerPiece: [600, 1400], piecesPerUnit: 1 },
  printing: { Description: 'Printed matter, books, boxed', PackageType: 'CTN', NMFCItemNumber: '161030', NMFCSub: '', Class: '60.0', weightPerPiece: [30, 45], piecesPerUnit: 30 },
  building: { Description: 'Building materials, NOI', PackageType: 'PLT', NMFCItemNumber: '027880', NMFCSub: '', Class: '70.0', weightPerPiece: [900, 1800], piecesPerUnit: 1 },
  candy: { Description: 'Confectionery, candy, boxed', PackageType: 'CTN', NMFCItemNumber: '073260', NMFCSub: '', Class: '65.0', weightPerPiece: [20, 30], piecesPerUnit: 40 },
  furniture: { Description: 'Office furniture, KD, flat', PackageType: 'CTN', NMFCItemNumber: '079300', NMFCSub: '04', Class: '125.0', weightPerPiece: [60, 140], piecesPerUnit: 6 },
  autoparts: { Description: 'Automotive parts, NOI', PackageType: 'PLT', NMFCItemNumber: '018270', NMFCSub: '', Class: '85.0', weightPerPiece: [350, 900], piecesPerUnit: 1 },
  solar: { Description: 'Solar panels, crated', PackageType: 'CRT', NMFCItemNumber: '062020', NMFCSub: '', Class: '125.0', weightPerPiece: [400, 750], piecesPerUnit: 1 },
  imports: { Description: 'Household goods, new, boxed', PackageType: 'CTN', NMFCItemNumber: '100240', NMFCSub: '', Class: '100.0', weightPerPiece: [25, 55], piecesPerUnit: 20 },
  paint: { Description: 'UN1263, Paint, 3, PG III', PackageType: 'PAIL', NMFCItemNumber: '149980', NMFCSub: '', Class: '55.0', weightPerPiece: [45, 45], piecesPerUnit: 36, hazmat: { number: 'UN1263', hazardClass: '3', packingGroup: 'III' } },
  apparel: { Description: 'Clothing, boxed', PackageType: 'CTN', NMFCItemNumber: '049880', NMFCSub: '', Class: '100.0', weightPerPiece: [25, 40], piecesPerUnit: 24 },
  marine: { Description: 'Boat hardware, boxed', PackageType: 'CTN', NMFCItemNumber: '023400', NMFCSub: '', Class: '77.5', weightPerPiece: [30, 70], piecesPerUnit: 16 },
  batteries: { Description: 'UN2794, Batteries, wet, filled with acid, electric storage, 8, PG III', PackageType: 'PLT', NMFCItemNumber: '060500', NMFCSub: '', Class: '65.0', weightPerPiece: [900, 1600], piecesPerUnit: 1, hazmat: { number: 'UN2794', hazardClass: '8', packingGroup: 'III' } },
  oilfield: { Description: 'UN1993, Flammable liquids, n.o.s. (xylene, toluene), 3, PG III', PackageType: 'DRM', NMFCItemNumber: '144920', NMFCSub: '', Class: '55.0', weightPerPiece: [420, 460], piecesPerUnit: 4, hazmat: { number: 'UN1993', hazardClass: '3', packingGroup: 'III' } },
  fasteners: { Description: 'Bolts, nuts, screws, steel, boxed', PackageType: 'PLT', NMFCItemNumber: '051500', NMFCSub: '', Class: '50.0', weightPerPiece: [1200, 2200], piecesPerUnit: 1 },
  medical: { Description: 'Medical supplies, disposable, NOI', PackageType: 'CTN', NMFCItemNumber: '124240', NMFCSub: '', Class: '92.5', weightPerPiece: [15, 35], piecesPerUnit: 30 },
  foods: { Description: 'Canned goods, boxed', PackageType: 'PLT', NMFCItemNumber: '086650', NMFCSub: '', Class: '55.0', weightPerPiece: [1400, 2000], piecesPerUnit: 1 },
  motors: { Description: 'Electric motors, crated', PackageType: 'CRT', NMFCItemNumber: '061700', NMFCSub: '', Class: '77.5', weightPerPiece: [250, 700], piecesPerUnit: 1 },
  agequip: { Description: 'Agricultural implement parts, NOI', PackageType: 'SKD', NMFCItemNumber: '001830', NMFCSub: '', Class: '85.0', weightPerPiece: [300, 900], piecesPerUnit: 1 },
  outdoor: { Description: 'Sporting goods, camping, boxed', PackageType: 'CTN', NMFCItemNumber: '180040', NMFCSub: '', Class: '150.0', weightPerPiece: [20, 45], piecesPerUnit: 20 },
  irrigation: { Description: 'Plastic pipe and fittings', PackageType: 'BNDL', NMFCItemNumber: '156300', NMFCSub: '', Class: '100.0', weightPerPiece: [150, 300], piecesPerUnit: 4 },
  beverage: { Description: 'Beverages, non-alcoholic, in cans', PackageType: 'PLT', NMFCItemNumber: '011560', NMFCSub: '', Class: '60.0', weightPerPiece: [1500, 2200], piecesPerUnit: 1 },
  labsupply: { Description: 'Laboratory glassware, boxed', PackageType: 'CTN', NMFCItemNumber: '086300', NMFCSub: '', Class: '175.0', weightPerPiece: [12, 25], piecesPerUnit: 20 },
  brewing: { Description: 'Stainless steel tanks, crated', PackageType: 'CRT', NMFCItemNumber: '190920', NMFCSub: '', Class: '200.0', weightPerPiece: [300, 650], piecesPerUnit: 1 },
  coffee: { Description: 'Coffee, roasted, in bags', PackageType: 'BAG', NMFCItemNumber: '045040', NMFCSub: '', Class: '65.0', weightPerPiece: [25, 25], piecesPerUnit: 40 },
  tile: { Description: 'Ceramic tile, boxed', PackageType: 'PLT', NMFCItemNumber: '047900', NMFCSub: '', Class: '50.0', weightPerPiece: [1800, 2400], piecesPerUnit: 1 },
  appliances: { Description: 'Household appliances, boxed', PackageType: 'CTN', NMFCItemNumber: '087200', NMFCSub: '', Class: '110.0', weightPerPiece: [80, 210], piecesPerUnit: 4 },
  pharma: { Description: 'Drugs, medicines, NOI, non-hazardous', PackageType: 'CTN', NMFCItemNumber: '060060', NMFCSub: '', Class: '70.0', weightPerPiece: [18, 32], piecesPerUnit: 30 },
  packaging: { Description: 'Corrugated boxes, flat, KD', PackageType: 'PLT', NMFCItemNumber: '029250', NMFCSub: '', Class: '77.5', weightPerPiece: [500, 900], piecesPerUnit: 1 },
  textiles: { Description: 'Textile fabric, in rolls', PackageType: 'ROLL', NMFCItemNumber: '197200', NMFCSub: '', Class: '70.0', weightPerPiece: [90, 180], piecesPerUnit: 8 },
  petfood: { Description: 'Pet food, dry, in bags', PackageType: 'BAG', NMFCItemNumber: '007960', NMFCSub: '', Class: '50.0', weightPerPiece: [40, 40], piecesPerUnit: 50 },
  crafts: { Description: 'Handicraft articles, NOI, boxed', PackageType: 'CTN', NMFCItemNumber: '097310', NMFCSub: '', Class: '150.0', weightPerPiece: [10, 25], piecesPerUnit: 20 },
  bearings: { Description: 'Bearings, ball or roller', PackageType: 'SKD', NMFCItemNumber: '020320', NMFCSub: '', Class: '60.0', weightPerPiece: [700, 1500], piecesPerUnit: 1 },
};

type CompanyRow = readonly [
  name: string,
  address: string,
  city: string,
  state: string,
  zip: string,
  country: CountryIso3,
  area: string,
  contact: string,
  goods: string,
];

const COMPANY_ROWS: readonly CompanyRow[] = [
  ['Harpeth Valley Plastics', '1450 Industrial Park Dr', 'Burns', 'TN', '37029', 'USA', '615', 'Dana Whitfield', 'plastics'],
  ['Bayshore Restaurant Supply', '8200 Anderson Rd', 'Tampa', 'FL', '33635', 'USA', '813', 'Luis Ortega', 'restaurant'],
  ['Prairie Fields Feed Co', '9700 Widmer Rd', 'Lenexa', 'KS', '66227', 'USA', '913', 'Carol Jensen', 'feed'],
  ['Delta Pine Hardware', '310 W Church St', 'Warren', 'AR', '71671', 'USA', '870', 'Bobby Haynes', 'hardware'],
  ['Gulf Coast Pool Chemicals', '5600 Trouble Creek Rd', 'New Port Richey', 'FL', '34655', 'USA', '727', 'Angela Price', 'poolchem'],
  ['Miami Valley Tool & Die', '4800 Webster St', 'Dayton', 'OH', '45414', 'USA', '937', 'Greg Holloway', 'tooling'],
  ['Capitol Beacon Printing', '2100 N 27th St', 'Lincoln', 'NE', '68507', 'USA', '402', 'Megan Schultz', 'printing'],
  ['Front Range Building Supply', '5200 Brighton Blvd', 'Denver', 'CO', '80216', 'USA', '303', 'Tom Baca', 'building'],
  ['Lakeshore Candy Works', '4400 S Kedzie Ave', 'Chicago', 'IL', '60632', 'USA', '773', 'Irene Kowalski', 'candy'],
  ['Peachtree Office Interiors', '3900 Fulton Industrial Blvd SW', 'Atlanta', 'GA', '30336', 'USA', '404', 'Marcus Bell', 'furniture'],
  ['Trinity Auto Parts Distributors', '2600 Manor Way', 'Dallas', 'TX', '75247', 'USA', '214', 'Rick Salazar', 'autoparts'],
  ['Saguaro Solar Systems', '4300 E Broadway Rd', 'Phoenix', 'AZ', '85040', 'USA', '602', 'Priya Raman', 'solar'],
  ['Port Elizabeth Imports', '700 Dowd Ave', 'Elizabeth', 'NJ', '07201', 'USA', '908', 'Frank Russo', 'imports'],
  ['James River Paint & Coatings', '1800 Commerce Rd', 'Richmond', 'VA', '23224', 'USA', '804', 'Shirley Tate', 'paint'],
  ['Pacific Rim Apparel', '6000 Sheila St', 'Commerce', 'CA', '90040', 'USA', '323', 'Kevin Nguyen', 'apparel'],
  ['Cascade Marine Hardware', '22000 68th Ave S', 'Kent', 'WA', '98032', 'USA', '253', 'Erik Lindqvist', 'marine'],
  ['Bluff City Battery', '3700 Lamar Ave', 'Memphis', 'TN', '38118', 'USA', '901', 'Darnell Hughes', 'batteries'],
  ['Bayou Oilfield Supply', '7800 Fairbanks N Houston Rd', 'Houston', 'TX', '77041', 'USA', '713', 'Wade Thibodeaux', 'oilfield'],
  ['Buckeye Fastener Co', '2500 Westbelt Dr', 'Columbus', 'OH', '43228', 'USA', '614', 'Nancy Kline', 'fasteners'],
  ['Queen City Medical Supply', '9300 Forsyth Park Dr', 'Charlotte', 'NC', '28273', 'USA', '704', 'Tonya Brooks', 'medical'],
  ['Northern Lights Furniture', '6500 Kestrel Rd', 'Mississauga', 'ON', 'L5T 1Z6', 'CAN', '905', 'Sandeep Gill', 'furniture'],
  ['Mont-Royal Distribution', '8400 Chemin Devonshire', 'Mont-Royal', 'QC', 'H4P 2K3', 'CAN', '514', 'Genevieve Tremblay', 'imports'],
  ['Humber Valley Packaging', '200 Belfield Rd', 'Etobicoke', 'ON', 'M9W 1H1', 'CAN', '416', 'Paul Marchetti', 'packaging'],
  ['Niagara Frontier Foods', '1500 Clinton St', 'Buffalo', 'NY', '14206', 'USA', '716', 'Joan Sikora', 'foods'],
  ['North Star Electric Motors', '1600 Broadway St NE', 'Minneapolis', 'MN', '55413', 'USA', '612', 'Lars Olson', 'motors'],
  ['Red River Ag Equipment', '3300 Main Ave', 'Fargo', 'ND', '58103', 'USA', '701', 'Hank Peterson', 'agequip'],
  ['Wasatch Outdoor Gear', '2300 S 2700 W', 'Salt Lake City', 'UT', '84119', 'USA', '801', 'Brynn Hatch', 'outdoor'],
  ['Treasure Valley Irrigation', '5400 W Franklin Rd', 'Boise', 'ID', '83705', 'USA', '208', 'Cody Mendiola', 'irrigation'],
  ['Biscayne Beverage Group', '10500 NW 29th Ter', 'Doral', 'FL', '33172', 'USA', '305', 'Yolanda Perez', 'beverage'],
  ['Circle City Lab Supply', '5100 W 82nd St', 'Indianapolis', 'IN', '46268', 'USA', '317', 'Neil Banerjee', 'labsupply'],
  ['Gateway Brewing Equipment', '2200 Chouteau Ave', 'St. Louis', 'MO', '63103', 'USA', '314', 'Audrey Klein', 'brewing'],
  ['Rose City Coffee Roasters', '4300 NE 122nd Ave', 'Portland', 'OR', '97230', 'USA', '503', 'Sam Okafor', 'coffee'],
  ['River City Hospitality', '8500 Fruitridge Rd', 'Sacramento', 'CA', '95826', 'USA', '916', 'Heather Lim', 'restaurant'],
  ['Alamo Tile & Stone', '4100 Rittiman Rd', 'San Antonio', 'TX', '78218', 'USA', '210', 'Rosa Villarreal', 'tile'],
  ['Sun City Appliance', '11300 Pellicano Dr', 'El Paso', 'TX', '79936', 'USA', '915', 'Victor Chavez', 'appliances'],
  ['Schuylkill Pharmaceuticals', '4500 Tacony St', 'Philadelphia', 'PA', '19137', 'USA', '215', 'Eileen McBride', 'pharma'],
  ['Harborside Seafood Packaging', '60 Harbor St', 'Boston', 'MA', '02210', 'USA', '617', 'Sean Doherty', 'packaging'],
  ['Piedmont Textile Mills', '3200 W Gate City Blvd', 'Greensboro', 'NC', '27407', 'USA', '336', 'Lorraine Pugh', 'textiles'],
  ['Coastal Empire Marine', '1400 E President St', 'Savannah', 'GA', '31404', 'USA', '912', 'Jerome Grant', 'marine'],
  ['Heartland Pet Foods', '7100 Front St', 'Kansas City', 'MO', '64120', 'USA', '816', 'Beth Ramsey', 'petfood'],
  ['Sooner Industrial Supply', '1100 N Portland Ave', 'Oklahoma City', 'OK', '73107', 'USA', '405', 'Troy Whitehorse', 'fasteners'],
  ['Chinook Oilfield Services', '5800 76 Ave SE', 'Calgary', 'AB', 'T2C 2N5', 'CAN', '403', 'Heather MacLeod', 'tooling'],
  ['Fraser Valley Fixtures', '1900 Boundary Rd', 'Vancouver', 'BC', 'V5M 3Y7', 'CAN', '604', 'Arjun Sidhu', 'furniture'],
  ['Last Frontier Marine Supply', '1200 Ocean Dock Rd', 'Anchorage', 'AK', '99501', 'USA', '907', 'Kaya Nelson', 'marine'],
  ['Isla Verde Distributors', '300 Calle Tabonuco', 'San Juan', 'PR', '00920', 'PRI', '787', 'Marisol Rivera', 'imports'],
  ['Aloha Island Provisions', '2900 Ualena St', 'Honolulu', 'HI', '96819', 'USA', '808', 'Keoni Kahale', 'foods'],
  ['Great Lakes Bearing', '5700 W Fort St', 'Detroit', 'MI', '48209', 'USA', '313', 'Stan Wozniak', 'bearings'],
  ['Smoky Mountain Crafts', '2700 Middlebrook Pike', 'Knoxville', 'TN', '37921', 'USA', '865', 'Rhonda Cates', 'crafts'],
];

function emailFor(name: string, contact: string): string {
  const domain = name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 24);
  const user = contact
    .toLowerCase()
    .split(' ')[0]!
    .replace(/[^a-z]/g, '');
  // .example is reserved (RFC 2606): sample mail can never reach a real mailbox.
  return `${user}@${domain}.example`;
}

export const COMPANIES: readonly Company[] = COMPANY_ROWS.map(([name, address, city, state, zip, country, area, contact, goods], i) => ({
  Name: name,
  AddressLine1: address,
  AddressLine2: i % 5 === 2 ? `Dock ${1 + (i % 7)}` : '',
  City: city,
  State: state,
  ZipCode: zip,
  Country: country,
  PhoneNumber: `${area}-555-01${String((i * 7 + 11) % 100).padStart(2, '0')}`,
  EmailAddress: emailFor(name, contact),
  Contact: contact,
  goods,
}));

/** [shipper, consignee] indexes into COMPANIES. */
// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
export const LANES: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15], [16, 17], [18, 19],
  [20, 21], [22, 23], [24, 25], [26, 27], [9, 28], [29, 30], [31, 32], [33, 34], [35, 36], [37, 38],
  [39, 40], [41, 42], [15, 43], [28, 44], [14, 45], [46, 10], [47, 19], [13, 35], [16, 9], [5, 46],
];

/** A third-party logistics company that pays the freight on the shipments it arranges. */
export const THIRD_PARTY_BILL_TO = {
  Name: 'Summit Freight Logistics LLC',
  AddressLine1: '500 Corporate Centre Dr',
  AddressLine2: 'Suite 210',
  City: 'Franklin',
  State: 'TN',
  ZipCode: '37067',
  Country: 'USA' as CountryIso3,
  PhoneNumber: '615-555-0170',
  EmailAddress: 'freightpay@summitfreightlogistics.example',
  Contact: 'Accounts Payable',
};

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
export const SIGNERS = [
  'J. SMITH', 'M. GARCIA', 'T. NGUYEN', 'R. JOHNSON', 'K. PATEL', 'L. WILLIAMS', 'D. BROWN', 'S. MARTIN',
  'A. LOPEZ', 'C. DAVIS', 'P. TREMBLAY', 'B. MILLER', 'H. KIM', 'E. WILSON', 'G. ANDERSON',
] as const;

export const SPECIAL_INSTRUCTIONS = [
  'Call consignee 30 minutes before delivery.',
  'Receiving hours 7:00 AM - 3:00 PM, Monday to Friday.',
  'Do not double stack.',
  'Deliver to rear dock; ring bell at door 4.',
  'Fragile - handle with care.',
  'Appointment required. Call receiving to schedule.',
] as const;
