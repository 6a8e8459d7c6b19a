// Word lists for demo data.
export const FORENAMES = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elif', 'Femi', 'Grace', 'Hugo', 'Isla', 'Jonas', 'Kemi', 'Liam', 'Maya', 'Noor', 'Oscar', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tariq', 'Una', 'Victor', 'Wen', 'Yusuf', 'Zoë'];
export const SURNAMES = ['Adeyemi', 'Brown', 'Chen', "D'Souza", 'Evans', 'Fischer', 'García', 'Hughes', 'Iqbal', 'Jones', 'Kowalski', 'Lopez', 'Müller', 'Nakamura', "O'Brien", 'Patel', 'Quinn', 'Rossi', 'Smith', 'Taylor', 'Ueda', 'Varga', 'Williams', 'Xu', 'Young'];
export const TITLES = ['Dr', 'Mr', 'Ms', 'Mrs', 'Mx', 'Prof'];
export const ORGANISATIONS = ['Northwind Health', 'Contoso Labs', 'Fabrikam & Sons', 'Globex <Research>', 'Initech', 'Umbrella Trust', 'Wayne Foundation', 'Stark Analytics'];
export const OCCUPATIONS = ['Engineer', 'Nurse', 'Researcher', 'Director', 'Analyst', 'Teacher', 'Consultant', 'Pharmacist'];
export const TOWNS = [['London', 'Greater London', 'EC1A 1BB', 'United Kingdom', 'GB'], ['Manchester', 'Lancashire', 'M1 1AE', 'United Kingdom', 'GB'], ['Dublin', 'Leinster', 'D02 X285', 'Ireland', 'IE'], ['Lyon', 'Rhône', '69002', 'France', 'FR'], ['Berlin', 'Berlin', '10115', 'Germany', 'DE']] as const;
export const EVENT_KINDS = [['Conference', 'CONF'], ['Workshop', 'WKS'], ['Webinar', 'WEB'], ['Summit', 'SUM'], ['Course', 'CRS']] as const;
export const TOPICS = ['Clinical Practice', 'Data & AI', 'Leadership', 'Green Energy', 'Public Health', 'Digital Safety', 'Research Methods', 'Patient Care'];
export const SERIES = ['Clinical Excellence', 'Future Leaders', 'Data Week', 'Net Zero'];
export const ROOMS = ['Main Hall', 'Room 101', 'Auditorium', 'Studio B'];
export const VENUES = ['ExCeL', 'Convention Centre', 'Town Hall', 'Online'];
