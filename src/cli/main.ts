console.log('evgen');
