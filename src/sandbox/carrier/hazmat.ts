/**
 * Hazardous-materials descriptions by UN/NA identification number, as GetHazmatDescription
 * returns them (UNorNA: Number, Description, NOS).
 *
 * Descriptions are proper shipping names from the 49 CFR 172.101 Hazardous Materials Table
 * (which follows the UN Model Regulations for UN numbers and adds the North American NA
 * numbers). One number often carries several table entries (UN1263 is both "Paint …" and
 * "Paint related material …"; UN1203 has the US and the UN spellings); all of them are kept,
 * in table order, because a shipper picks the one that matches the freight.
 *
 * NOS is derived, not typed: an entry is "n.o.s." (not otherwise specified) exactly when its
 * proper shipping name says so, which is also how the table marks generic entries that need a
 * technical name in parentheses.
 */

export type PackingGroup = 'I' | 'II' | 'III';

export interface HazmatEntry {
  /** `UN1203`, `NA1993`. */
  readonly Number: string;
  readonly Description: string;
  readonly NOS: 'Y' | 'N';
  /** The hazard class (`3`, `5.1`, `Combustible liquid`); two where the table leaves the choice to the gas. */
  readonly hazardClasses: readonly string[];
  /** The packing groups the table allows; none where it gives none. */
  readonly packingGroups: readonly PackingGroup[];
}

const ENTRIES: ReadonlyArray<readonly [string, string]> = [
  ['UN1001', 'Acetylene, dissolved'],
  ['UN1002', 'Air, compressed'],
  ['UN1005', 'Ammonia, anhydrous'],
  ['UN1006', 'Argon, compressed'],
  ['UN1011', 'Butane'],
  ['UN1013', 'Carbon dioxide'],
  ['UN1017', 'Chlorine'],
  ['UN1027', 'Cyclopropane'],
  ['UN1028', 'Dichlorodifluoromethane or Refrigerant gas R 12'],
  ['UN1035', 'Ethane'],
  ['UN1040', 'Ethylene oxide'],
  ['UN1044', 'Fire extinguishers containing compressed or liquefied gas'],
  ['UN1046', 'Helium, compressed'],
  ['UN1049', 'Hydrogen, compressed'],
  ['UN1050', 'Hydrogen chloride, anhydrous'],
  ['UN1053', 'Hydrogen sulfide'],
  ['UN1057', 'Lighters or Lighter refills containing flammable gas'],
  ['UN1066', 'Nitrogen, compressed'],
  ['UN1072', 'Oxygen, compressed'],
  ['UN1073', 'Oxygen, refrigerated liquid'],
  ['UN1075', 'Liquefied petroleum gas'],
  ['UN1075', 'Petroleum gases, liquefied'],
  ['UN1077', 'Propylene'],
  ['UN1078', 'Refrigerant gases, n.o.s.'],
  ['UN1079', 'Sulfur dioxide'],
  ['UN1086', 'Vinyl chloride, stabilized'],
  ['UN1089', 'Acetaldehyde'],
  ['UN1090', 'Acetone'],
  ['UN1093', 'Acrylonitrile, stabilized'],
  ['UN1098', 'Allyl alcohol'],
  ['UN1105', 'Pentanols'],
  ['UN1114', 'Benzene'],
  ['UN1120', 'Butanols'],
  ['UN1123', 'Butyl acetates'],
  ['UN1133', 'Adhesives, containing flammable liquid'],
  [
    'UN1139',
    'Coating solution (includes surface treatments or coatings used for industrial or other purposes such as vehicle undercoating, drum or barrel lining)',
  ],
  ['UN1145', 'Cyclohexane'],
  ['UN1169', 'Extracts, aromatic, liquid'],
  ['UN1170', 'Ethanol or Ethyl alcohol or Ethanol solutions or Ethyl alcohol solutions'],
  ['UN1173', 'Ethyl acetate'],
  ['UN1175', 'Ethylbenzene'],
  ['UN1197', 'Extracts, flavoring, liquid'],
  ['UN1202', 'Diesel fuel'],
  ['UN1202', 'Gas oil or Diesel fuel or Heating oil, light'],
  ['UN1203', 'Gasoline'],
  ['UN1203', 'Gasoline includes gasoline mixed with ethyl alcohol, with not more than 10% alcohol'],
  ['UN1203', 'Motor spirit or Gasoline or Petrol'],
  ['UN1206', 'Heptanes'],
  ['UN1208', 'Hexanes'],
  ['UN1210', 'Printing ink, flammable or Printing ink related material (including printing ink thinning or reducing compound), flammable'],
  ['UN1212', 'Isobutanol or Isobutyl alcohol'],
  ['UN1219', 'Isopropanol or Isopropyl alcohol'],
  ['UN1223', 'Kerosene'],
  ['UN1230', 'Methanol'],
  ['UN1247', 'Methyl methacrylate monomer, stabilized'],
  ['UN1263', 'Paint including paint, lacquer, enamel, stain, shellac solutions, varnish, polish, liquid filler, and liquid lacquer base'],
  ['UN1263', 'Paint related material including paint thinning, drying, removing, or reducing compound'],
  ['UN1266', 'Perfumery products with flammable solvents'],
  ['UN1267', 'Petroleum crude oil'],
  ['UN1268', 'Petroleum distillates, n.o.s. or Petroleum products, n.o.s.'],
  ['UN1274', 'n-Propanol or Propyl alcohol, normal'],
  ['UN1287', 'Rubber solution'],
  ['UN1288', 'Shale oil'],
  ['UN1293', 'Tinctures, medicinal'],
  ['UN1294', 'Toluene'],
  ['UN1299', 'Turpentine'],
  ['UN1300', 'Turpentine substitute'],
  ['UN1306', 'Wood preservatives, liquid'],
  ['UN1307', 'Xylenes'],
  ['UN1325', 'Flammable solids, organic, n.o.s.'],
  ['UN1328', 'Hexamethylenetetramine'],
  ['UN1334', 'Naphthalene, crude or Naphthalene, refined'],
  ['UN1350', 'Sulfur'],
  ['UN1361', 'Carbon, animal or vegetable origin'],
  ['UN1362', 'Carbon, activated'],
  ['UN1363', 'Copra'],
  ['UN1383', 'Pyrophoric metals, n.o.s., or Pyrophoric alloys, n.o.s.'],
  ['UN1384', 'Sodium dithionite or Sodium hydrosulfite'],
  ['UN1396', 'Aluminum powder, uncoated'],
  ['UN1402', 'Calcium carbide'],
  ['UN1415', 'Lithium'],
  ['UN1418', 'Magnesium powder or Magnesium alloys powder'],
  ['UN1428', 'Sodium'],
  ['UN1438', 'Aluminum nitrate'],
  ['UN1446', 'Barium nitrate'],
  ['UN1454', 'Calcium nitrate'],
  ['UN1477', 'Nitrates, inorganic, n.o.s.'],
  ['UN1479', 'Oxidizing solid, n.o.s.'],
  ['UN1486', 'Potassium nitrate'],
  ['UN1490', 'Potassium permanganate'],
  ['UN1495', 'Sodium chlorate'],
  ['UN1498', 'Sodium nitrate'],
  ['UN1500', 'Sodium nitrite'],
  ['UN1505', 'Sodium persulfate'],
  ['UN1547', 'Aniline'],
  ['UN1593', 'Dichloromethane'],
  ['UN1604', 'Ethylenediamine'],
  ['UN1648', 'Acetonitrile'],
  ['UN1680', 'Potassium cyanide, solid'],
  ['UN1689', 'Sodium cyanide, solid'],
  ['UN1710', 'Trichloroethylene'],
  ['UN1719', 'Caustic alkali liquids, n.o.s.'],
  ['UN1760', 'Corrosive liquids, n.o.s.'],
  ['UN1789', 'Hydrochloric acid'],
  ['UN1791', 'Hypochlorite solutions'],
  ['UN1805', 'Phosphoric acid, solution'],
  ['UN1813', 'Potassium hydroxide, solid'],
  ['UN1814', 'Potassium hydroxide, solution'],
  ['UN1823', 'Sodium hydroxide, solid'],
  ['UN1824', 'Sodium hydroxide solution'],
  ['UN1830', 'Sulfuric acid with more than 51 percent acid'],
  ['UN1832', 'Sulfuric acid, spent'],
  ['UN1845', 'Carbon dioxide, solid or Dry ice'],
  ['UN1863', 'Fuel, aviation, turbine engine'],
  ['UN1866', 'Resin solution, flammable'],
  ['UN1888', 'Chloroform'],
  ['UN1897', 'Tetrachloroethylene'],
  ['UN1950', 'Aerosols, flammable, (each not exceeding 1 L capacity)'],
  ['UN1950', 'Aerosols, non-flammable, (each not exceeding 1 L capacity)'],
  ['UN1951', 'Argon, refrigerated liquid'],
  ['UN1954', 'Compressed gas, flammable, n.o.s.'],
  ['UN1956', 'Compressed gas, n.o.s.'],
  ['UN1965', 'Hydrocarbon gas mixture, liquefied, n.o.s.'],
  ['UN1966', 'Hydrogen, refrigerated liquid'],
  ['UN1969', 'Isobutane'],
  ['UN1971', 'Methane, compressed or Natural gas, compressed'],
  ['UN1972', 'Methane, refrigerated liquid or Natural gas, refrigerated liquid'],
  ['UN1977', 'Nitrogen, refrigerated liquid'],
  ['UN1978', 'Propane'],
  ['UN1987', 'Alcohols, n.o.s.'],
  ['UN1989', 'Aldehydes, n.o.s.'],
  ['UN1992', 'Flammable liquids, toxic, n.o.s.'],
  ['UN1993', 'Flammable liquids, n.o.s.'],
  ['NA1993', 'Combustible liquid, n.o.s.'],
  ['NA1993', 'Compounds, cleaning liquid'],
  ['NA1993', 'Diesel fuel'],
  ['NA1993', 'Fuel oil (No. 1, 2, 4, 5, or 6)'],
  ['UN1999', 'Tars, liquid, including road oils, and cutback bitumens'],
  ['UN2014', 'Hydrogen peroxide, aqueous solutions with not less than 20 percent but not more than 60 percent hydrogen peroxide (stabilized as necessary)'],
  ['UN2015', 'Hydrogen peroxide, stabilized or Hydrogen peroxide aqueous solutions, stabilized with more than 60 percent hydrogen peroxide'],
  ['UN2031', 'Nitric acid other than red fuming, with at least 65 percent, but not more than 70 percent nitric acid'],
  ['UN2031', 'Nitric acid other than red fuming, with not more than 65 percent nitric acid'],
  ['UN2037', 'Receptacles, small, containing gas or gas cartridges'],
  ['UN2055', 'Styrene monomer, stabilized'],
  ['UN2056', 'Tetrahydrofuran'],
  ['UN2067', 'Ammonium nitrate based fertilizer'],
  ['UN2187', 'Carbon dioxide, refrigerated liquid'],
  ['UN2209', 'Formaldehyde, solutions, with not less than 25 percent formaldehyde'],
  ['UN2211', 'Polymeric beads, expandable, evolving flammable vapor'],
  ['UN2213', 'Paraformaldehyde'],
  ['UN2218', 'Acrylic acid, stabilized'],
  ['UN2265', 'N,N-Dimethylformamide'],
  ['UN2315', 'Polychlorinated biphenyls, liquid'],
  ['UN2381', 'Dimethyl disulfide'],
  ['UN2426', 'Ammonium nitrate, liquid'],
  ['UN2448', 'Sulfur, molten'],
  ['UN2491', 'Ethanolamine or Ethanolamine solutions'],
  ['UN2582', 'Ferric chloride, solution'],
  [
    'UN2672',
    'Ammonia solutions, relative density between 0.880 and 0.957 at 15 degrees C in water, with more than 10 percent but not more than 35 percent ammonia',
  ],
  ['UN2734', 'Amines, liquid, corrosive, flammable, n.o.s. or Polyamines, liquid, corrosive, flammable, n.o.s.'],
  ['UN2735', 'Amines, liquid, corrosive, n.o.s. or Polyamines, liquid, corrosive, n.o.s.'],
  ['UN2789', 'Acetic acid, glacial or Acetic acid solution, more than 80 percent acid, by mass'],
  ['UN2790', 'Acetic acid solution, not less than 50 percent but not more than 80 percent acid, by mass'],
  ['UN2790', 'Acetic acid solution, with more than 10 percent and less than 50 percent acid, by mass'],
  ['UN2794', 'Batteries, wet, filled with acid, electric storage'],
  ['UN2795', 'Batteries, wet, filled with alkali, electric storage'],
  ['UN2796', 'Battery fluid, acid'],
  ['UN2796', 'Sulfuric acid with not more than 51 percent acid'],
  ['UN2797', 'Battery fluid, alkali'],
  ['UN2800', 'Batteries, wet, non-spillable, electric storage'],
  ['UN2809', 'Mercury'],
  ['UN2810', 'Toxic liquids, organic, n.o.s.'],
  ['UN2811', 'Toxic solids, organic, n.o.s.'],
  ['UN2813', 'Water-reactive solid, n.o.s.'],
  ['UN2814', 'Infectious substances, affecting humans'],
  ['UN2857', 'Refrigerating machines, containing non-flammable, non-toxic gases, or ammonia solutions (UN2672)'],
  ['UN2880', 'Calcium hypochlorite, hydrated, or Calcium hypochlorite, hydrated mixtures, with not less than 5.5 percent but not more than 16 percent water'],
  ['UN2900', 'Infectious substances, affecting animals only'],
  ['UN2902', 'Pesticides, liquid, toxic, n.o.s.'],
  ['UN2910', 'Radioactive material, excepted package-limited quantity of material'],
  ['UN2911', 'Radioactive material, excepted package-instruments or articles'],
  ['UN2915', 'Radioactive material, Type A package, non-special form, non fissile or fissile-excepted'],
  ['UN2920', 'Corrosive liquids, flammable, n.o.s.'],
  ['UN2922', 'Corrosive liquids, toxic, n.o.s.'],
  ['UN2924', 'Flammable liquids, corrosive, n.o.s.'],
  ['UN3065', 'Alcoholic beverages'],
  ['UN3066', 'Paint (including paint, lacquer, enamel, stain, shellac, varnish, polish, liquid filler and liquid lacquer base)'],
  ['UN3066', 'Paint related material (including paint thinning or reducing compounds)'],
  ['UN3077', 'Environmentally hazardous substances, solid, n.o.s.'],
  ['NA3077', 'Hazardous waste, solid, n.o.s.'],
  ['UN3082', 'Environmentally hazardous substances, liquid, n.o.s.'],
  ['NA3082', 'Hazardous waste, liquid, n.o.s.'],
  ['UN3090', 'Lithium metal batteries including lithium alloy batteries'],
  ['UN3091', 'Lithium metal batteries contained in equipment including lithium alloy batteries'],
  ['UN3091', 'Lithium metal batteries packed with equipment including lithium alloy batteries'],
  ['UN3101', 'Organic peroxide type B, liquid'],
  ['UN3105', 'Organic peroxide type D, liquid'],
  ['UN3109', 'Organic peroxide type F, liquid'],
  ['UN3139', 'Oxidizing liquid, n.o.s.'],
  ['UN3148', 'Water-reactive liquid, n.o.s.'],
  ['UN3149', 'Hydrogen peroxide and peroxyacetic acid mixtures, stabilized with acids, water, and not more than 5 percent peroxyacetic acid'],
  ['UN3166', 'Vehicle, flammable gas powered'],
  ['UN3166', 'Vehicle, flammable liquid powered'],
  ['UN3171', 'Battery-powered vehicle or Battery-powered equipment'],
  ['UN3175', 'Solids containing flammable liquid, n.o.s.'],
  ['UN3178', 'Flammable solid, inorganic, n.o.s.'],
  ['UN3257', 'Elevated temperature liquid, n.o.s., at or above 100 C and below its flash point (including molten metals, molten salts, etc.)'],
  ['UN3260', 'Corrosive solid, acidic, inorganic, n.o.s.'],
  ['UN3262', 'Corrosive solid, basic, inorganic, n.o.s.'],
  ['UN3264', 'Corrosive liquid, acidic, inorganic, n.o.s.'],
  ['UN3265', 'Corrosive liquid, acidic, organic, n.o.s.'],
  ['UN3266', 'Corrosive liquid, basic, inorganic, n.o.s.'],
  ['UN3267', 'Corrosive liquid, basic, organic, n.o.s.'],
  ['UN3268', 'Safety devices, electrically initiated'],
  ['UN3269', 'Polyester resin kit, liquid base material'],
  ['UN3271', 'Ethers, n.o.s.'],
  ['UN3272', 'Esters, n.o.s.'],
  ['UN3287', 'Toxic liquid, inorganic, n.o.s.'],
  [
    'UN3291',
    'Regulated medical waste, n.o.s. or Clinical waste, unspecified, n.o.s. or (BIO) Medical waste, n.o.s., or Biomedical waste, n.o.s. or Medical waste, n.o.s.',
  ],
  ['UN3295', 'Hydrocarbons, liquid, n.o.s.'],
  ['UN3316', 'Chemical kits'],
  ['UN3316', 'First aid kits'],
  ['UN3356', 'Oxygen generator, chemical'],
  ['UN3363', 'Dangerous goods in machinery or Dangerous goods in apparatus'],
  ['UN3373', 'Biological substance, Category B'],
  ['UN3475', 'Ethanol and gasoline mixture or Ethanol and motor spirit mixture or Ethanol and petrol mixture, with more than 10% ethanol'],
  ['UN3480', 'Lithium ion batteries including lithium ion polymer batteries'],
  ['UN3481', 'Lithium ion batteries contained in equipment including lithium ion polymer batteries'],
  ['UN3481', 'Lithium ion batteries packed with equipment including lithium ion polymer batteries'],
  ['UN3508', 'Capacitor, asymmetric'],
  ['UN3509', 'Packagings, discarded, empty, uncleaned'],
  ['UN3530', 'Engine, internal combustion'],
  ['UN3530', 'Machinery, internal combustion'],
  ['NA1325', 'Fusee (railway or highway)'],
  ['NA1361', 'Charcoal briquettes, shell, screenings, wood, etc.'],
  ['NA1760', 'Compounds, cleaning liquid'],
  ['NA1760', 'Compounds, tree killing, liquid or Compounds, weed killing, liquid'],
  ['NA2212', 'Asbestos'],
  ['NA2810', 'Compounds, tree killing, liquid or Compounds, weed killing, liquid'],
  ['NA9037', 'Hexachloroethane'],
  ['NA9260', 'Aluminum, molten'],
];

/**
 * Hazard class and packing groups of each number, from the same table: `class:groups`, classes
 * that may stand (`2.1,2.2`) separated by commas; no groups where the table gives none (gases,
 * class 7, most articles). `;` separates entries of one number that differ, in table order.
 */
// A table laid out by hand: the formatter leaves it as written.
// prettier-ignore
const CLASSES: Readonly<Record<string, string>> = {
  UN1001: '2.1', UN1002: '2.2', UN1005: '2.2', UN1006: '2.2', UN1011: '2.1', UN1013: '2.2', UN1017: '2.3', UN1027: '2.1', UN1028: '2.2', UN1035: '2.1',
  UN1040: '2.3', UN1044: '2.2', UN1046: '2.2', UN1049: '2.1', UN1050: '2.3', UN1053: '2.3', UN1057: '2.1', UN1066: '2.2', UN1072: '2.2', UN1073: '2.2',
  UN1075: '2.1', UN1077: '2.1', UN1078: '2.2', UN1079: '2.3', UN1086: '2.1', UN1089: '3:I', UN1090: '3:II', UN1093: '3:I', UN1098: '6.1:I',
  UN1105: '3:II,III', UN1114: '3:II', UN1120: '3:II,III', UN1123: '3:II,III', UN1133: '3:I,II,III', UN1139: '3:I,II,III', UN1145: '3:II',
  UN1169: '3:II,III', UN1170: '3:II,III', UN1173: '3:II', UN1175: '3:II', UN1197: '3:II,III', UN1202: '3:III', UN1203: '3:II', UN1206: '3:II',
  UN1208: '3:II', UN1210: '3:I,II,III', UN1212: '3:III', UN1219: '3:II', UN1223: '3:III', UN1230: '3:II', UN1247: '3:II', UN1263: '3:I,II,III',
  UN1266: '3:II,III', UN1267: '3:I,II,III', UN1268: '3:I,II,III', UN1274: '3:II,III', UN1287: '3:II,III', UN1288: '3:II,III', UN1293: '3:II,III',
  UN1294: '3:II', UN1299: '3:III', UN1300: '3:II,III', UN1306: '3:II,III', UN1307: '3:II,III', UN1325: '4.1:II,III', UN1328: '4.1:III',
  UN1334: '4.1:III', UN1350: '4.1:III', UN1361: '4.2:II,III', UN1362: '4.2:III', UN1363: '4.2:III', UN1383: '4.2:I', UN1384: '4.2:II',
  UN1396: '4.3:II,III', UN1402: '4.3:I,II', UN1415: '4.3:I', UN1418: '4.3:I,II,III', UN1428: '4.3:I', UN1438: '5.1:III', UN1446: '5.1:II',
  UN1454: '5.1:III', UN1477: '5.1:II,III', UN1479: '5.1:I,II,III', UN1486: '5.1:III', UN1490: '5.1:II', UN1495: '5.1:II', UN1498: '5.1:III',
  UN1500: '5.1:III', UN1505: '5.1:III', UN1547: '6.1:II', UN1593: '6.1:III', UN1604: '8:II', UN1648: '3:II', UN1680: '6.1:I', UN1689: '6.1:I',
  UN1710: '6.1:III', UN1719: '8:I,II,III', UN1760: '8:I,II,III', UN1789: '8:II,III', UN1791: '8:II,III', UN1805: '8:III', UN1813: '8:II',
  UN1814: '8:II,III', UN1823: '8:II', UN1824: '8:II,III', UN1830: '8:II', UN1832: '8:II', UN1845: '9:III', UN1863: '3:I,II,III', UN1866: '3:I,II,III',
  UN1888: '6.1:III', UN1897: '6.1:III', UN1950: '2.1;2.2', UN1951: '2.2', UN1954: '2.1', UN1956: '2.2', UN1965: '2.1', UN1966: '2.1', UN1969: '2.1',
  UN1971: '2.1', UN1972: '2.1', UN1977: '2.2', UN1978: '2.1', UN1987: '3:I,II,III', UN1989: '3:I,II,III', UN1992: '3:I,II,III', UN1993: '3:I,II,III',
  NA1993: 'Combustible liquid:III;3:I,II,III;3:III;3:III', UN1999: '3:II,III', UN2014: '5.1:II', UN2015: '5.1:I', UN2031: '8:II', UN2037: '2.1,2.2',
  UN2055: '3:III', UN2056: '3:II', UN2067: '5.1:III', UN2187: '2.2', UN2209: '8:III', UN2211: '9:III', UN2213: '4.1:III', UN2218: '8:II',
  UN2265: '3:III', UN2315: '9:II', UN2381: '3:II', UN2426: '5.1', UN2448: '4.1:III', UN2491: '8:III', UN2582: '8:III', UN2672: '8:III',
  UN2734: '8:I,II', UN2735: '8:I,II,III', UN2789: '8:II', UN2790: '8:II;8:III', UN2794: '8:III', UN2795: '8:III', UN2796: '8:II', UN2797: '8:II',
  UN2800: '8:III', UN2809: '8:III', UN2810: '6.1:I,II,III', UN2811: '6.1:I,II,III', UN2813: '4.3:I,II,III', UN2814: '6.2', UN2857: '2.2',
  UN2880: '5.1:II,III', UN2900: '6.2', UN2902: '6.1:I,II,III', UN2910: '7', UN2911: '7', UN2915: '7', UN2920: '8:I,II', UN2922: '8:I,II,III',
  UN2924: '3:I,II,III', UN3065: '3:II,III', UN3066: '8:II,III', UN3077: '9:III', NA3077: '9:III', UN3082: '9:III', NA3082: '9:III', UN3090: '9:II',
  UN3091: '9:II', UN3101: '5.2', UN3105: '5.2', UN3109: '5.2', UN3139: '5.1:I,II,III', UN3148: '4.3:I,II,III', UN3149: '5.1:II', UN3166: '9',
  UN3171: '9', UN3175: '4.1:II', UN3178: '4.1:II,III', UN3257: '9:III', UN3260: '8:I,II,III', UN3262: '8:I,II,III', UN3264: '8:I,II,III',
  UN3265: '8:I,II,III', UN3266: '8:I,II,III', UN3267: '8:I,II,III', UN3268: '9:III', UN3269: '3:II,III', UN3271: '3:II,III', UN3272: '3:II,III',
  UN3287: '6.1:I,II,III', UN3291: '6.2:II', UN3295: '3:I,II,III', UN3316: '9:II,III', UN3356: '5.1:II', UN3363: '9', UN3373: '6.2', UN3475: '3:II',
  UN3480: '9:II', UN3481: '9:II', UN3508: '9', UN3509: '9', UN3530: '9', NA1325: '4.1:II', NA1361: '4.2:III', NA1760: '8:II', NA2212: '9:III',
  NA2810: '6.1:I,II,III', NA9037: '9:III', NA9260: '9:III',
};

const NOS_PATTERN = /\bn\.o\.s\./i;

export const HAZMAT_ENTRIES: readonly HazmatEntry[] = ENTRIES.map(([Number, Description], i) => {
  const forNumber = (CLASSES[Number] ?? '').split(';');
  const nth = ENTRIES.slice(0, i).filter(([n]) => n === Number).length;
  const [classes = '', groups = ''] = (forNumber[nth] ?? forNumber[0]!).split(':');
  return {
    Number,
    Description,
    NOS: NOS_PATTERN.test(Description) ? 'Y' : 'N',
    hazardClasses: classes.split(',').filter(Boolean),
    packingGroups: groups.split(',').filter(Boolean) as PackingGroup[],
  };
});

const BY_NUMBER: ReadonlyMap<string, readonly HazmatEntry[]> = (() => {
  const byNumber = new Map<string, HazmatEntry[]>();
  for (const e of HAZMAT_ENTRIES) {
    const list = byNumber.get(e.Number) ?? [];
    list.push(e);
    byNumber.set(e.Number, list);
  }
  return byNumber;
})();

const QUERY = /^(UN|NA)?[\s-]*(\d{4})$/;

/**
 * All table entries for a UN/NA number, [] when the number is unknown or not a number.
 * Accepts `1203`, `UN1203`, `un 1203`, `UN-1203`, `NA1993`. With a prefix only that prefix's
 * entries come back; a bare number matches both (1993 gives the UN1993 and the NA1993
 * entries), because a shipper who types four digits usually does not know which list the
 * number is on.
 */
export function lookupHazmat(unnaNumber: string): HazmatEntry[] {
  const m = QUERY.exec((unnaNumber ?? '').trim().toUpperCase());
  if (!m) return [];
  const prefixes = m[1] ? [m[1]] : ['UN', 'NA'];
  return prefixes.flatMap((p) => BY_NUMBER.get(`${p}${m[2]}`) ?? []).map((e) => ({ ...e }));
}

/**
 * The names a table entry may be written by on a shipping paper: the entry itself, each of its
 * "or" alternatives, and each without the descriptive text that follows the proper shipping
 * name in the table ("Paint including paint, lacquer, …" is shipped as "Paint").
 */
function shippingNames(description: string): string[] {
  const names = new Set<string>();
  for (const whole of [description, ...description.split(/,? or /)]) {
    const name = whole.trim().replace(/,$/, '');
    names.add(name);
    const short = name
      .split(/ includ(?:es|ing) | \(/)[0]!
      .trim()
      .replace(/,$/, '');
    if (short) names.add(short);
  }
  return [...names].sort((a, b) => b.length - a.length);
}

export interface HazmatDescriptionCheck {
  readonly entry?: HazmatEntry;
  /** What does not match the table, each naming what the table says. */
  readonly problems: readonly string[];
}

const DESCRIPTION_ID = /^(UN|NA)[\s-]?(\d{4})\b\s*,?\s*(.*)$/is;

/**
 * A hazardous item's basic description as 49 CFR 172.202 orders it — identification number,
 * proper shipping name, hazard class, packing group (`UN1203, Gasoline, 3, PG II`), anything
 * after it free text (`4 drums`) — held against the table, so a bill of lading never certifies
 * what the table does not say. `label` names the field in the messages (`Item 1 Description`).
 */
export function checkHazmatDescription(label: string, description: string): HazmatDescriptionCheck {
  const example = 'UN1203, Gasoline, 3, PG II';
  const m = DESCRIPTION_ID.exec(description.trim());
  if (!m)
    return {
      problems: [`${label} of a hazardous item must begin with its UN or NA number, proper shipping name, hazard class and packing group, as in "${example}".`],
    };
  const number = `${m[1]!.toUpperCase()}${m[2]}`;
  const entries = BY_NUMBER.get(number) ?? [];
  if (!entries.length) return { problems: [`${label} names ${number}, which is not in the hazmat table (GetHazmatDescription has no entry for it).`] };
  const rest = m[3]!;
  const lower = rest.toLowerCase();
  let entry: HazmatEntry | undefined;
  let after = '';
  for (const e of entries) {
    const name = shippingNames(e.Description).find((n) => lower.startsWith(n.toLowerCase()) && /^($|,|\s*\()/.test(rest.slice(n.length)));
    if (name && (!entry || name.length > rest.length - after.length)) {
      entry = e;
      after = rest.slice(name.length);
    }
  }
  if (!entry) {
    const named = rest.split(',')[0]!.trim();
    return {
      problems: [
        `${label} proper shipping name ${named ? `"${named}"` : '(none)'} is not the hazmat table's for ${number}: ${entries.map((e) => `"${e.Description}"`).join(' or ')}.`,
      ],
    };
  }
  // A technical name in parentheses may follow an n.o.s. name: "(xylene, toluene)".
  const parts = after
    .replace(/^\s*\([^)]*\)/, '')
    .split(',')
    .map((p) => p.trim());
  if (parts[0] === '') parts.shift();
  const problems: string[] = [];
  const classText = (parts[0] ?? '').replace(/^class\s*/i, '');
  const classes = entry.hazardClasses.join(' or ');
  if (!classText) problems.push(`${label} hazard class is missing after the proper shipping name: the hazmat table gives ${number} class ${classes}.`);
  else if (!entry.hazardClasses.some((c) => c.toLowerCase() === classText.toLowerCase()))
    problems.push(`${label} hazard class ${classText} is not the hazmat table's for ${number}: class ${classes}.`);
  const pg = /^(?:PG\s*)?(I{1,3})(?![A-Z])/i.exec(parts[1] ?? '');
  const group = pg?.[1]!.toUpperCase() as PackingGroup | undefined;
  if (entry.packingGroups.length) {
    const allowed = entry.packingGroups.map((g) => `PG ${g}`).join(', ');
    if (!group) problems.push(`${label} packing group is missing after the hazard class: the hazmat table gives ${number} ${allowed}.`);
    else if (!entry.packingGroups.includes(group)) problems.push(`${label} packing group PG ${group} is not the hazmat table's for ${number}: ${allowed}.`);
  } else if (group) problems.push(`${label} packing group PG ${group} is not the hazmat table's: ${number} has no packing group.`);
  return { entry, problems };
}

/**
 * An emergency response number as a bill of lading can print it (49 CFR 172.604 wants one
 * monitored around the clock): a US or Canadian number, 10 digits whose area code and exchange
 * begin 2-9, optionally after +1 or 1, with spaces, dots, dashes or parentheses between. What the
 * sandbox cannot tell is whether anyone answers; `call me` is no number at all.
 */
export function isEmergencyPhone(value: string): boolean {
  if (/^\s*\+(?!1)/.test(value)) return false;
  const digits = value.trim().replace(/^\+/, '');
  if (!/^[\d\s().-]+$/.test(digits)) return false;
  const bare = digits.replace(/[\s().-]/g, '');
  return /^1?[2-9]\d\d[2-9]\d{6}$/.test(bare);
}
