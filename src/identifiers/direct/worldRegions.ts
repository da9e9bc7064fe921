/**
 * Places above a country that no registry list holds: continents, the world's regions as news and
 * encyclopaedias name them, and the nations of the United Kingdom (ISO 3166 lists the kingdom only).
 * Written by hand for ppmlm from general knowledge; public, fixed before any corpus is seen. Regions that
 * are also English words (Pacific, Arctic, Gulf) count only in context, as every ambiguous place does.
 */
export const WORLD_REGIONS: readonly string[] = [
  'Africa', 'Antarctica', 'Asia', 'Australasia', 'Europe', 'Eurasia', 'North America', 'South America', 'Central America', 'Latin America', 'Oceania',
  'Middle East', 'Near East', 'Far East', 'Southeast Asia', 'South Asia', 'East Asia', 'Central Asia', 'West Asia', 'Asia Pacific', 'Indochina',
  'North Africa', 'West Africa', 'East Africa', 'Southern Africa', 'Central Africa', 'Sub-Saharan Africa', 'Horn of Africa', 'Maghreb', 'Sahel', 'Sahara',
  'Western Europe', 'Eastern Europe', 'Central Europe', 'Northern Europe', 'Southern Europe', 'Scandinavia', 'Nordic countries', 'Balkans', 'Baltics', 'Iberia', 'Benelux', 'Caucasus', 'Siberia', 'Anatolia', 'Levant', 'Mesopotamia', 'Arabia', 'Persian Gulf',
  'Caribbean', 'West Indies', 'Patagonia', 'Amazonia', 'Polynesia', 'Micronesia', 'Melanesia', 'Mediterranean', 'Arctic', 'Pacific', 'Atlantic',
  'England', 'Scotland', 'Wales', 'Northern Ireland', 'Great Britain', 'Britain', 'Ulster', 'Cornwall', 'Flanders', 'Wallonia', 'Bavaria', 'Tyrol', 'Lapland', 'Tibet', 'Kashmir', 'Punjab', 'Bengal', 'Kurdistan', 'Transylvania', 'Silesia', 'Lombardy', 'Tuscany', 'Sicily', 'Sardinia', 'Corsica', 'Normandy', 'Brittany', 'Provence', 'Andalusia', 'Catalonia', 'Basque Country', 'Galicia',
  'New England', 'Midwest', 'Deep South', 'Pacific Northwest', 'Appalachia', 'Great Plains', 'Great Lakes', 'Yukon',
];
