/**
 * Places that no registry list holds, or holds only in another language or spelling, as news and
 * encyclopaedias name them: continents and the world's regions, the nations of the United Kingdom, seas,
 * mountain ranges, rivers and deserts, disputed and former countries, the English names of regions and
 * cities that GeoNames gives in their own language (Saxony, Nuremberg, Kiev), and the few buildings that
 * news names as places (the Kremlin). Written by hand for ppmlm from general knowledge; public, fixed
 * before any corpus is seen. Each is a place wherever it is written as a name, even where it is also a
 * word (Wales, Pacific, Middle East).
 */
export const WORLD_PLACES: readonly string[] = [
  // Continents and regions of the world.
  'Africa', 'Antarctica', 'Antarctic', 'Asia', 'Australasia', 'Europe', 'Eurasia', 'North America', 'South America', 'Central America', 'Latin America', 'Oceania',
  'Middle East', 'Near East', 'Far East', 'Southeast Asia', 'South Asia', 'East Asia', 'Central Asia', 'West Asia', 'Asia Pacific', 'Indochina',
  'North Africa', 'West Africa', 'East Africa', 'Southern Africa', 'Central Africa', 'Sub-Saharan Africa', 'Horn of Africa', 'Maghreb', 'Sahel', 'Sahara',
  'Western Europe', 'Eastern Europe', 'Central Europe', 'Northern Europe', 'Southern Europe', 'Scandinavia', 'Nordic countries', 'Balkans', 'Baltics', 'Iberia', 'Benelux', 'Caucasus', 'Siberia', 'Anatolia', 'Levant', 'Mesopotamia', 'Arabia', 'Persian Gulf',
  'Caribbean', 'West Indies', 'Patagonia', 'Amazonia', 'Polynesia', 'Micronesia', 'Melanesia', 'Mediterranean', 'Arctic', 'Pacific', 'Atlantic',
  // Nations, regions and provinces, in English.
  'England', 'Scotland', 'Wales', 'Northern Ireland', 'Great Britain', 'Britain', 'Ulster', 'Cornwall', 'East Anglia', 'Midlands', 'West Midlands', 'East Midlands', 'Lake District', 'Scottish Highlands',
  'Flanders', 'Wallonia', 'Bavaria', 'Saxony', 'Lower Saxony', 'Saxony-Anhalt', 'Thuringia', 'Hesse', 'North Rhine-Westphalia', 'Rhineland-Palatinate', 'Rhineland', 'Ruhr', 'Mecklenburg-Western Pomerania', 'Pomerania', 'Tyrol',
  'Lapland', 'Tibet', 'Kashmir', 'Punjab', 'Bengal', 'Kurdistan', 'Transylvania', 'Silesia', 'Bohemia', 'Moravia', 'Lombardy', 'Tuscany', 'Piedmont', 'Apulia', 'Sicily', 'Sardinia', 'Corsica',
  'Normandy', 'Brittany', 'Provence', 'Burgundy', 'Alsace', 'Riviera', 'Andalusia', 'Catalonia', 'Castile', 'Aragon', 'Navarre', 'Basque Country', 'Galicia',
  'Crimea', 'Chechnya', 'Dagestan', 'Donbas', 'Abkhazia', 'South Ossetia', 'Transnistria', 'Nagorno-Karabakh', 'Darfur', 'Xinjiang', 'Manchuria', 'Mongolia', 'Macau',
  'New England', 'Midwest', 'Deep South', 'Pacific Northwest', 'Appalachia', 'Great Plains', 'Great Lakes', 'Yukon', 'East Coast', 'West Coast', 'Gulf Coast', 'Silicon Valley',
  // Disputed and former countries.
  'West Bank', 'Gaza Strip', 'Golan Heights', 'Kosovo', 'Bosnia', 'Herzegovina', 'Zaire', 'Yugoslavia', 'Soviet Union', 'USSR', 'Czechoslovakia', 'Burma', 'Ceylon', 'Rhodesia', 'Persia', 'Prussia',
  'East Germany', 'West Germany', 'Siam', 'Holland', 'Ivory Coast', 'East Timor', 'Swaziland', 'Zanzibar',
  // Cities under their English or former names.
  'Kiev', 'Nuremberg', 'Bruges', 'Ghent', 'Peking', 'Bombay', 'Rangoon', 'Saigon', 'Leningrad', 'Stalingrad', 'Constantinople', 'Danzig', 'Breslau', 'Frankfurt', 'The Hague',
  // Seas, straits and canals.
  'Pacific Ocean', 'Atlantic Ocean', 'Indian Ocean', 'Arctic Ocean', 'Southern Ocean', 'North Atlantic', 'South Atlantic', 'North Pacific', 'South Pacific',
  'Black Sea', 'Red Sea', 'Dead Sea', 'Caspian Sea', 'North Sea', 'Baltic Sea', 'Aegean Sea', 'Adriatic Sea', 'Ionian Sea', 'Arabian Sea', 'Irish Sea', 'Caribbean Sea', 'South China Sea', 'East China Sea', 'Sea of Japan',
  'Adriatic', 'Aegean', 'Baltic', 'Caspian', 'Gulf of Mexico', 'Gulf of Aden', 'English Channel', 'Bering Strait', 'Strait of Hormuz', 'Bosphorus', 'Suez Canal', 'Panama Canal',
  // Mountains, rivers, deserts.
  'Himalayas', 'Alps', 'Andes', 'Rockies', 'Rocky Mountains', 'Pyrenees', 'Urals', 'Carpathians', 'Appalachians', 'Apennines', 'Hindu Kush', 'Atlas Mountains', 'Dolomites', 'Everest', 'Kilimanjaro',
  'Nile', 'Danube', 'Rhine', 'Thames', 'Seine', 'Volga', 'Yangtze', 'Ganges', 'Euphrates', 'Tigris', 'Amazon', 'Mekong', 'Zambezi', 'Rio Grande', 'Orinoco', 'Indus',
  'Gobi', 'Kalahari', 'Sinai', 'Great Barrier Reef',
  // Buildings and streets that news names as places.
  'Kremlin', 'Pentagon', 'White House', 'Capitol Hill', 'Downing Street', 'Whitehall', 'Wall Street',
];
