/**
 * The sandbox carrier's terminal network: service centers, the breakbulks that sort linehaul
 * freight between them, and agents that cover the places a US/Canadian LTL carrier reaches
 * through a partner (Alaska, Hawaii, Puerto Rico, outer Canada).
 *
 * Cities, ZIP/postal codes and area codes are real; street addresses are invented and every
 * phone number uses the 555-01xx block reserved for fiction, so no sample call or fax can
 * reach a real business.
 */
import { distanceMiles, locate, normalizeCountry, zoneOf, type CountryIso3 } from './geography';

export type TerminalType = 'Service Center' | 'Breakbulk' | 'Agent';
export type PhoneType = 'Main' | 'Fax' | 'Dispatch' | 'Customer Service' | 'Toll Free';

export interface TerminalPhone {
  readonly PhoneType: PhoneType;
  readonly PhoneNumber: string;
}

/** The interface's TerminalDetails fields, plus phones and a position for distance lookups. */
export interface Terminal {
  readonly TerminalDetailID: number;
  readonly TerminalLocationID: number;
  readonly TerminalLocationName: string;
  readonly TerminalName: string;
  readonly TerminalType: TerminalType;
  readonly TerminalCode: string;
  readonly TerminalMailingAddress1: string;
  readonly TerminalMailingAddress2: string;
  readonly TerminalMailingCity: string;
  readonly TerminalMailingState: string;
  readonly TerminalMailingZip: string;
  readonly TerminalMailingCountry: CountryIso3;
  /** xs:dateTime, no zone. */
  readonly DateCreated: string;
  readonly phones: readonly TerminalPhone[];
  readonly lat: number;
  readonly lon: number;
  /** IANA zone of the terminal's wall clock: its pickups, deliveries and dates are in this time. */
  readonly zone: string;
}

type Row = readonly [
  code: string,
  city: string,
  state: string,
  zip: string,
  country: CountryIso3,
  type: TerminalType,
  address1: string,
  address2: string,
  lat: number,
  lon: number,
  areaCode: string,
  created: string,
];

// Breakbulks sit where linehaul lanes cross; the rest are end-of-line service centers.
const ROWS: readonly Row[] = [
  // Northeast
  ['BOS', 'Wilmington', 'MA', '01887', 'USA', 'Service Center', '400 Ballardvale St', '', 42.55, -71.17, '978', '1998-04-06'],
  ['HFD', 'South Windsor', 'CT', '06074', 'USA', 'Service Center', '155 Governors Hwy', '', 41.82, -72.62, '860', '2001-09-17'],
  ['PVD', 'Cranston', 'RI', '02921', 'USA', 'Service Center', '88 Freight Dr', '', 41.77, -71.44, '401', '2004-02-02'],
  ['PWM', 'South Portland', 'ME', '04106', 'USA', 'Service Center', '31 Rigby Rd', '', 43.64, -70.28, '207', '2006-05-22'],
  ['MAN', 'Londonderry', 'NH', '03053', 'USA', 'Service Center', '12 Perimeter Rd', '', 42.9, -71.38, '603', '2009-08-10'],
  ['BTV', 'Williston', 'VT', '05495', 'USA', 'Agent', '207 Industrial Ave', 'Suite B', 44.44, -73.1, '802', '2011-03-14'],
  ['ALB', 'Albany', 'NY', '12205', 'USA', 'Service Center', '901 Railroad Ave', '', 42.72, -73.8, '518', '1999-11-01'],
  ['SYR', 'Syracuse', 'NY', '13211', 'USA', 'Service Center', '6420 Thompson Rd', '', 43.1, -76.12, '315', '2000-06-12'],
  ['BUF', 'Cheektowaga', 'NY', '14227', 'USA', 'Service Center', '75 Commerce Pkwy', '', 42.89, -78.75, '716', '1997-10-20'],
  ['NYC', 'Maspeth', 'NY', '11378', 'USA', 'Service Center', '58-20 Grand Ave', '', 40.72, -73.91, '718', '1996-01-15'],
  ['EWR', 'Elizabeth', 'NJ', '07201', 'USA', 'Service Center', '1000 Dowd Ave', '', 40.66, -74.19, '908', '1996-01-15'],
  ['CMD', 'Pennsauken', 'NJ', '08110', 'USA', 'Service Center', '7700 Central Hwy', '', 39.96, -75.05, '856', '2003-07-07'],
  ['PHL', 'Philadelphia', 'PA', '19154', 'USA', 'Service Center', '3001 Red Lion Rd', '', 40.09, -74.97, '215', '1995-03-27'],
  ['HBG', 'Harrisburg', 'PA', '17111', 'USA', 'Breakbulk', '6300 Grayson Rd', '', 40.27, -76.79, '717', '1994-08-01'],
  ['PIT', 'Pittsburgh', 'PA', '15205', 'USA', 'Service Center', '1400 Industrial Hwy', '', 40.44, -80.06, '412', '1997-05-19'],
  ['ABE', 'Allentown', 'PA', '18109', 'USA', 'Service Center', '1850 Race St', '', 40.62, -75.43, '610', '2005-10-03'],
  // Mid-Atlantic and Southeast
  ['BAL', 'Baltimore', 'MD', '21226', 'USA', 'Service Center', '2200 Chesapeake Ave', '', 39.21, -76.57, '410', '1996-09-09'],
  ['RIC', 'Richmond', 'VA', '23234', 'USA', 'Service Center', '5101 Commerce Rd', '', 37.46, -77.45, '804', '1998-02-16'],
  ['ORF', 'Chesapeake', 'VA', '23323', 'USA', 'Service Center', '3920 Cook Blvd', '', 36.78, -76.3, '757', '2002-04-29'],
  ['ROA', 'Roanoke', 'VA', '24012', 'USA', 'Service Center', '2430 Shenandoah Ave NW', '', 37.29, -79.96, '540', '2007-06-04'],
  ['CRW', 'Charleston', 'WV', '25312', 'USA', 'Service Center', '811 Freight Ln', '', 38.41, -81.7, '304', '2008-09-22'],
  ['CLT', 'Charlotte', 'NC', '28206', 'USA', 'Breakbulk', '4900 Statesville Rd', '', 35.25, -80.82, '704', '1993-05-03'],
  ['GSO', 'Greensboro', 'NC', '27409', 'USA', 'Service Center', '7200 Cockman Rd', '', 36.08, -79.93, '336', '1999-01-25'],
  ['RDU', 'Raleigh', 'NC', '27610', 'USA', 'Service Center', '3600 Poole Rd', '', 35.75, -78.57, '919', '2000-12-04'],
  ['CAE', 'West Columbia', 'SC', '29172', 'USA', 'Service Center', '1300 Chris Dr', '', 33.94, -81.1, '803', '2001-03-19'],
  ['CHS', 'North Charleston', 'SC', '29405', 'USA', 'Service Center', '4001 Meeting St Rd', '', 32.86, -79.98, '843', '2003-11-10'],
  ['GSP', 'Greer', 'SC', '29651', 'USA', 'Service Center', '215 Freight Terminal Rd', '', 34.92, -82.23, '864', '2006-02-06'],
  ['ATL', 'Forest Park', 'GA', '30297', 'USA', 'Breakbulk', '5100 Frontage Rd', '', 33.62, -84.37, '404', '1992-07-13'],
  ['SAV', 'Savannah', 'GA', '31408', 'USA', 'Service Center', '2 Gateway Blvd', '', 32.12, -81.17, '912', '2004-08-30'],
  ['JAX', 'Jacksonville', 'FL', '32254', 'USA', 'Service Center', '1800 Ellis Rd N', '', 30.34, -81.75, '904', '1997-12-08'],
  ['MCO', 'Orlando', 'FL', '32824', 'USA', 'Service Center', '9600 Boggy Creek Rd', '', 28.41, -81.39, '407', '1998-06-22'],
  ['TPA', 'Tampa', 'FL', '33619', 'USA', 'Service Center', '5500 Adamo Dr', '', 27.94, -82.35, '813', '1996-04-01'],
  ['MIA', 'Medley', 'FL', '33166', 'USA', 'Service Center', '10000 NW 89th Ave', '', 25.84, -80.33, '305', '1999-09-13'],
  ['BHM', 'Birmingham', 'AL', '35217', 'USA', 'Service Center', '3100 Pinson Valley Pkwy', '', 33.6, -86.75, '205', '1997-02-03'],
  ['MOB', 'Mobile', 'AL', '36619', 'USA', 'Service Center', '5800 Rangeline Rd', '', 30.6, -88.18, '251', '2005-01-17'],
  ['BNA', 'Nashville', 'TN', '37207', 'USA', 'Breakbulk', '900 Cowan St', '', 36.22, -86.77, '615', '1991-10-07'],
  ['MEM', 'Memphis', 'TN', '38118', 'USA', 'Breakbulk', '3800 Air Park St', '', 35.05, -89.93, '901', '1994-04-18'],
  ['TYS', 'Knoxville', 'TN', '37921', 'USA', 'Service Center', '2800 Middlebrook Pike', '', 35.98, -83.99, '865', '2002-10-14'],
  ['JAN', 'Jackson', 'MS', '39209', 'USA', 'Service Center', '1500 Industrial Dr', '', 32.33, -90.24, '601', '2003-05-05'],
  ['MSY', 'Harahan', 'LA', '70123', 'USA', 'Service Center', '5700 Jefferson Hwy', '', 29.94, -90.2, '504', '2000-03-06'],
  ['BTR', 'Baton Rouge', 'LA', '70805', 'USA', 'Service Center', '3300 Choctaw Dr', '', 30.47, -91.14, '225', '2008-01-28'],
  // Midwest
  ['SDF', 'Louisville', 'KY', '40213', 'USA', 'Service Center', '4500 Poplar Level Rd', '', 38.17, -85.7, '502', '1998-08-17'],
  ['CVG', 'Cincinnati', 'OH', '45241', 'USA', 'Service Center', '11500 Enterprise Dr', '', 39.28, -84.4, '513', '1997-07-28'],
  ['CMH', 'Columbus', 'OH', '43207', 'USA', 'Breakbulk', '2800 Alum Creek Dr', '', 39.9, -82.97, '614', '1993-09-20'],
  ['CLE', 'Cleveland', 'OH', '44135', 'USA', 'Service Center', '5200 W 150th St', '', 41.42, -81.84, '216', '1996-11-25'],
  ['DAY', 'Dayton', 'OH', '45414', 'USA', 'Service Center', '4000 Needmore Rd', '', 39.82, -84.19, '937', '2004-04-12'],
  ['DTW', 'Romulus', 'MI', '48174', 'USA', 'Service Center', '28000 Goddard Rd', '', 42.22, -83.37, '734', '1995-06-05'],
  ['GRR', 'Grand Rapids', 'MI', '49548', 'USA', 'Service Center', '4500 Clay Ave SW', '', 42.87, -85.65, '616', '2001-07-30'],
  ['IND', 'Indianapolis', 'IN', '46241', 'USA', 'Breakbulk', '2600 S Holt Rd', '', 39.73, -86.26, '317', '1992-02-24'],
  ['FWA', 'Fort Wayne', 'IN', '46809', 'USA', 'Service Center', '7400 Bluffton Rd', '', 41.03, -85.2, '260', '2007-11-19'],
  ['ORD', 'Chicago', 'IL', '60638', 'USA', 'Breakbulk', '6500 W 65th St', '', 41.77, -87.78, '773', '1990-05-14'],
  ['RFD', 'Rockford', 'IL', '61109', 'USA', 'Service Center', '3900 Sandy Hollow Rd', '', 42.22, -89.03, '815', '2005-09-26'],
  ['PIA', 'Peoria', 'IL', '61607', 'USA', 'Service Center', '1200 SW Adams St', '', 40.65, -89.64, '309', '2006-12-11'],
  ['MKE', 'Oak Creek', 'WI', '53154', 'USA', 'Service Center', '9000 S 13th St', '', 42.88, -87.9, '414', '1998-10-05'],
  ['GRB', 'Green Bay', 'WI', '54304', 'USA', 'Service Center', '1700 Lawrence Dr', '', 44.48, -88.08, '920', '2009-02-23'],
  ['MSP', 'Eagan', 'MN', '55121', 'USA', 'Service Center', '3100 Lone Oak Cir', '', 44.83, -93.15, '651', '1996-07-22'],
  ['DSM', 'Des Moines', 'IA', '50313', 'USA', 'Service Center', '4700 NE 14th St', '', 41.64, -93.6, '515', '1999-04-26'],
  ['CID', 'Cedar Rapids', 'IA', '52404', 'USA', 'Service Center', '500 Wilson Ave SW', '', 41.95, -91.68, '319', '2010-06-07'],
  ['STL', 'St. Louis', 'MO', '63132', 'USA', 'Service Center', '9900 Page Ave', '', 38.68, -90.37, '314', '1995-08-14'],
  ['SGF', 'Springfield', 'MO', '65803', 'USA', 'Service Center', '3000 N Kentwood Ave', '', 37.24, -93.27, '417', '2008-05-12'],
  ['MCI', 'Kansas City', 'KS', '66115', 'USA', 'Breakbulk', '2900 Fairfax Trfy', '', 39.13, -94.62, '913', '1991-03-04'],
  ['ICT', 'Wichita', 'KS', '67219', 'USA', 'Service Center', '4100 N Broadway St', '', 37.76, -97.33, '316', '2004-10-18'],
  ['OMA', 'Omaha', 'NE', '68127', 'USA', 'Service Center', '7300 L St', '', 41.21, -96.02, '402', '1997-01-06'],
  ['LNK', 'Lincoln', 'NE', '68524', 'USA', 'Service Center', '2500 W Bond Cir', '', 40.86, -96.72, '402', '2003-02-10'],
  ['FAR', 'Fargo', 'ND', '58102', 'USA', 'Service Center', '3600 7th Ave N', '', 46.88, -96.84, '701', '2002-08-05'],
  ['FSD', 'Sioux Falls', 'SD', '57107', 'USA', 'Service Center', '4800 N Cliff Ave', '', 43.59, -96.71, '605', '2005-07-11'],
  // Southwest
  ['DFW', 'Dallas', 'TX', '75212', 'USA', 'Breakbulk', '3500 Singleton Blvd', '', 32.78, -96.87, '214', '1990-09-10'],
  ['IAH', 'Houston', 'TX', '77029', 'USA', 'Service Center', '9800 Clinton Dr', '', 29.73, -95.25, '713', '1994-12-05'],
  ['SAT', 'San Antonio', 'TX', '78219', 'USA', 'Service Center', '4100 E Houston St', '', 29.43, -98.43, '210', '1996-03-18'],
  ['AUS', 'Austin', 'TX', '78744', 'USA', 'Service Center', '5900 S Congress Ave', '', 30.19, -97.77, '512', '2001-01-29'],
  ['ELP', 'El Paso', 'TX', '79927', 'USA', 'Service Center', '12000 Rojas Dr', '', 31.69, -106.27, '915', '2003-09-08'],
  ['LBB', 'Lubbock', 'TX', '79404', 'USA', 'Service Center', '3900 E 34th St', '', 33.56, -101.79, '806', '2010-03-22'],
  ['OKC', 'Oklahoma City', 'OK', '73129', 'USA', 'Service Center', '1800 SE 59th St', '', 35.41, -97.48, '405', '1998-11-16'],
  ['TUL', 'Tulsa', 'OK', '74116', 'USA', 'Service Center', '2200 N Mingo Rd', '', 36.18, -95.86, '918', '1999-08-02'],
  ['LIT', 'North Little Rock', 'AR', '72117', 'USA', 'Service Center', '4600 E Broadway St', '', 34.76, -92.2, '501', '2000-10-23'],
  ['PHX', 'Phoenix', 'AZ', '85043', 'USA', 'Service Center', '5200 W Buckeye Rd', '', 33.44, -112.17, '602', '1997-04-14'],
  ['TUS', 'Tucson', 'AZ', '85714', 'USA', 'Service Center', '3300 E Valencia Rd', '', 32.13, -110.92, '520', '2004-06-28'],
  ['ABQ', 'Albuquerque', 'NM', '87107', 'USA', 'Service Center', '4400 Edith Blvd NE', '', 35.13, -106.63, '505', '2002-01-14'],
  // Mountain
  ['DEN', 'Commerce City', 'CO', '80022', 'USA', 'Breakbulk', '5900 E 56th Ave', '', 39.8, -104.92, '303', '1993-06-21'],
  ['SLC', 'Salt Lake City', 'UT', '84104', 'USA', 'Service Center', '2100 S 3600 W', '', 40.72, -111.98, '801', '1996-10-14'],
  ['BOI', 'Boise', 'ID', '83716', 'USA', 'Service Center', '3800 E Gowen Rd', '', 43.55, -116.16, '208', '2001-05-07'],
  ['BIL', 'Billings', 'MT', '59101', 'USA', 'Service Center', '2400 Lampman Dr', '', 45.77, -108.47, '406', '2006-08-14'],
  ['CYS', 'Cheyenne', 'WY', '82007', 'USA', 'Agent', '1500 W College Dr', '', 41.1, -104.84, '307', '2012-04-02'],
  ['LAS', 'North Las Vegas', 'NV', '89030', 'USA', 'Service Center', '3500 N Lamb Blvd', '', 36.21, -115.07, '702', '1999-02-08'],
  ['RNO', 'Sparks', 'NV', '89431', 'USA', 'Service Center', '700 E Glendale Ave', '', 39.53, -119.74, '775', '2002-06-17'],
  // Pacific
  ['LAX', 'Commerce', 'CA', '90040', 'USA', 'Breakbulk', '5800 E Sheila St', '', 33.99, -118.15, '323', '1990-01-08'],
  ['ONT', 'Fontana', 'CA', '92335', 'USA', 'Service Center', '10900 Almond Ave', '', 34.09, -117.46, '909', '1998-03-30'],
  ['SAN', 'San Diego', 'CA', '92154', 'USA', 'Service Center', '2200 Airway Rd', '', 32.57, -116.98, '619', '1997-09-15'],
  ['OAK', 'San Leandro', 'CA', '94577', 'USA', 'Service Center', '2000 Williams St', '', 37.71, -122.18, '510', '1995-05-01'],
  ['SJC', 'San Jose', 'CA', '95112', 'USA', 'Service Center', '1100 Berryessa Rd', '', 37.36, -121.88, '408', '2000-07-24'],
  ['SMF', 'West Sacramento', 'CA', '95691', 'USA', 'Service Center', '3300 Industrial Blvd', '', 38.56, -121.55, '916', '1999-12-13'],
  ['FAT', 'Fresno', 'CA', '93725', 'USA', 'Service Center', '3400 S Golden State Blvd', '', 36.69, -119.76, '559', '2003-03-24'],
  ['PDX', 'Portland', 'OR', '97218', 'USA', 'Breakbulk', '11000 NE Marx St', '', 45.56, -122.55, '503', '1994-11-28'],
  ['EUG', 'Eugene', 'OR', '97402', 'USA', 'Service Center', '90 Bethel Dr', '', 44.08, -123.15, '541', '2007-02-12'],
  ['SEA', 'Kent', 'WA', '98032', 'USA', 'Service Center', '21000 72nd Ave S', '', 47.41, -122.24, '253', '1996-02-19'],
  ['GEG', 'Spokane Valley', 'WA', '99216', 'USA', 'Service Center', '3800 N Sullivan Rd', '', 47.69, -117.2, '509', '2001-10-29'],
  // Served through partners
  ['ANC', 'Anchorage', 'AK', '99518', 'USA', 'Agent', '6100 Arctic Spur Rd', '', 61.15, -149.87, '907', '2008-07-21'],
  ['FAI', 'Fairbanks', 'AK', '99701', 'USA', 'Agent', '2300 Van Horn Rd', '', 64.83, -147.75, '907', '2013-05-06'],
  ['HNL', 'Honolulu', 'HI', '96819', 'USA', 'Agent', '2800 Kilihau St', '', 21.33, -157.89, '808', '2009-10-12'],
  ['SJU', 'Carolina', 'PR', '00983', 'PRI', 'Agent', 'Carr 887 Km 1.2', 'Parque Industrial', 18.41, -65.98, '787', '2010-09-27'],
  // Canada
  ['YYZ', 'Mississauga', 'ON', 'L5T 2H9', 'CAN', 'Breakbulk', '6200 Tomken Rd', '', 43.65, -79.67, '905', '1999-06-14'],
  ['YOW', 'Ottawa', 'ON', 'K1G 3N3', 'CAN', 'Service Center', '2500 Sheffield Rd', '', 45.41, -75.62, '613', '2003-04-07'],
  ['YXU', 'London', 'ON', 'N6N 1C3', 'CAN', 'Service Center', '1100 Green Valley Rd', '', 42.93, -81.21, '519', '2006-09-18'],
  ['YUL', 'Saint-Laurent', 'QC', 'H4S 1R6', 'CAN', 'Service Center', '5000 Rue Fairway', '', 45.49, -73.73, '514', '2000-02-21'],
  ['YQB', 'Quebec', 'QC', 'G1N 4N6', 'CAN', 'Service Center', '950 Rue Bouvier', '', 46.82, -71.29, '418', '2005-03-28'],
  ['YHZ', 'Dartmouth', 'NS', 'B3B 1X4', 'CAN', 'Service Center', '40 Thornhill Dr', '', 44.7, -63.58, '902', '2004-11-08'],
  ['YQM', 'Moncton', 'NB', 'E1H 2J2', 'CAN', 'Service Center', '1200 Berry Mills Rd', '', 46.12, -64.87, '506', '2008-04-14'],
  ['YYT', 'Mount Pearl', 'NL', 'A1N 4L7', 'CAN', 'Agent', '35 Glencoe Dr', '', 47.52, -52.81, '709', '2012-08-20'],
  ['YWG', 'Winnipeg', 'MB', 'R2R 0V3', 'CAN', 'Service Center', '1700 Inkster Blvd', '', 49.94, -97.2, '204', '2001-08-27'],
  ['YQR', 'Regina', 'SK', 'S4N 5W4', 'CAN', 'Service Center', '1600 Fleury St', '', 50.45, -104.55, '306', '2007-05-28'],
  ['YXE', 'Saskatoon', 'SK', 'S7K 6A2', 'CAN', 'Service Center', '3200 Millar Ave', '', 52.17, -106.66, '306', '2007-05-28'],
  ['YYC', 'Calgary', 'AB', 'T2C 4W7', 'CAN', 'Breakbulk', '5400 72 Ave SE', '', 50.98, -113.98, '403', '1999-10-04'],
  ['YEG', 'Edmonton', 'AB', 'T6E 5Z4', 'CAN', 'Service Center', '8000 Roper Rd NW', '', 53.5, -113.45, '780', '2002-02-25'],
  ['YVR', 'Delta', 'BC', 'V4G 1N2', 'CAN', 'Service Center', '7400 River Rd', '', 49.14, -122.95, '604', '2000-11-20'],
  ['YYJ', 'Victoria', 'BC', 'V8Z 3A4', 'CAN', 'Agent', '600 Garbally Rd', '', 48.47, -123.39, '250', '2014-01-13'],
];

function phonesFor(areaCode: string, index: number, type: TerminalType): TerminalPhone[] {
  // 01xx lines are spread by index so two terminals in one area code still differ.
  const line = (offset: number): string => `${areaCode}-555-01${String((index * 3 + offset) % 100).padStart(2, '0')}`;
  const phones: TerminalPhone[] = [
    { PhoneType: 'Main', PhoneNumber: line(0) },
    { PhoneType: 'Fax', PhoneNumber: line(1) },
  ];
  if (type !== 'Agent') phones.push({ PhoneType: 'Dispatch', PhoneNumber: line(2) });
  return phones;
}

const SUFFIX: Record<TerminalType, string> = {
  'Service Center': 'Service Center',
  Breakbulk: 'Breakbulk Center',
  Agent: 'Agent Terminal',
};

export const TERMINALS: readonly Terminal[] = ROWS.map((r, i) => {
  const [code, city, state, zip, country, type, address1, address2, lat, lon, areaCode, created] = r;
  return {
    TerminalDetailID: 10_001 + i,
    // Location ids are older and sparser than detail ids on real systems; keep them distinct.
    TerminalLocationID: 300 + i * 7,
    TerminalLocationName: `${city}, ${state}`,
    TerminalName: `${city} ${SUFFIX[type]}`,
    TerminalType: type,
    TerminalCode: code,
    TerminalMailingAddress1: address1,
    TerminalMailingAddress2: address2,
    TerminalMailingCity: city,
    TerminalMailingState: state,
    TerminalMailingZip: zip,
    TerminalMailingCountry: country,
    DateCreated: `${created}T08:00:00`,
    phones: phonesFor(areaCode, i, type),
    lat,
    lon,
    zone: zoneOf(state, lat, lon),
  };
});

const BY_CODE: ReadonlyMap<string, Terminal> = new Map(TERMINALS.map((t) => [t.TerminalCode, t]));

export function terminalByCode(code: string): Terminal | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

/** Canada is served from Canadian terminals, everything under USPS from US/PR ones. */
function sameNetwork(a: CountryIso3, b: CountryIso3): boolean {
  return (a === 'CAN') === (b === 'CAN');
}

/**
 * The `count` terminals nearest to a ZIP or postal code, nearest first. The country may be
 * ISO3 or ISO2 (`USA`/`US`, `CAN`/`CA`, `PRI`/`PR`). A malformed or unassigned code, or one
 * that does not belong to the country, gives []. Terminals across the border are not offered,
 * because a carrier serves a ZIP from its own country's network.
 */
export function findTerminalsFor(zipOrPostal: string, countryIso3OrIso2: string, count = 3): Terminal[] {
  if (normalizeCountry(countryIso3OrIso2) === undefined) return [];
  const place = locate(zipOrPostal, countryIso3OrIso2);
  if (!place || count < 1) return [];
  return TERMINALS.filter((t) => sameNetwork(t.TerminalMailingCountry, place.country))
    .map((t) => ({ t, miles: distanceMiles(place, t) }))
    .sort((a, b) => a.miles - b.miles || a.t.TerminalDetailID - b.t.TerminalDetailID)
    .slice(0, Math.floor(count))
    .map((x) => x.t);
}

/** The nearest breakbulk of the same network: where a linehaul move from `t` is sorted. */
export function breakbulkFor(t: Terminal): Terminal {
  if (t.TerminalType === 'Breakbulk') return t;
  let best: Terminal | undefined;
  let bestMiles = Infinity;
  for (const b of TERMINALS) {
    if (b.TerminalType !== 'Breakbulk' || !sameNetwork(b.TerminalMailingCountry, t.TerminalMailingCountry)) continue;
    const miles = distanceMiles(t, b);
    if (miles < bestMiles) [best, bestMiles] = [b, miles];
  }
  return best ?? t;
}
